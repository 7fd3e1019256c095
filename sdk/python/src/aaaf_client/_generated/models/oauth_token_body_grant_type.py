from typing import Literal

OauthTokenBodyGrantType = Literal['client_credentials']

OAUTH_TOKEN_BODY_GRANT_TYPE_VALUES: set[OauthTokenBodyGrantType] = { 'client_credentials',  }

def check_oauth_token_body_grant_type(value: str) -> OauthTokenBodyGrantType:
    if value in OAUTH_TOKEN_BODY_GRANT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OAUTH_TOKEN_BODY_GRANT_TYPE_VALUES!r}")
