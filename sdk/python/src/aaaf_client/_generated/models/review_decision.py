from typing import Literal

ReviewDecision = Literal['approve', 'reject']

REVIEW_DECISION_VALUES: set[ReviewDecision] = { 'approve', 'reject',  }

def check_review_decision(value: str) -> ReviewDecision:
    if value in REVIEW_DECISION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_DECISION_VALUES!r}")
