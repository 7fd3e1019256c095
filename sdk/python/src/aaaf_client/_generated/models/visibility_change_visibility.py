from typing import Literal

VisibilityChangeVisibility = Literal['private', 'public']

VISIBILITY_CHANGE_VISIBILITY_VALUES: set[VisibilityChangeVisibility] = { 'private', 'public',  }

def check_visibility_change_visibility(value: str) -> VisibilityChangeVisibility:
    if value in VISIBILITY_CHANGE_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VISIBILITY_CHANGE_VISIBILITY_VALUES!r}")
