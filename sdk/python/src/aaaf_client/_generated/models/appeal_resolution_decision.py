from typing import Literal

AppealResolutionDecision = Literal['accepted', 'rejected']

APPEAL_RESOLUTION_DECISION_VALUES: set[AppealResolutionDecision] = { 'accepted', 'rejected',  }

def check_appeal_resolution_decision(value: str) -> AppealResolutionDecision:
    if value in APPEAL_RESOLUTION_DECISION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {APPEAL_RESOLUTION_DECISION_VALUES!r}")
