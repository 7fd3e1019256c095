from typing import Literal

AssessmentCreateType = Literal['full', 'passive_only', 'single_dimension', 'stress_test_only']

ASSESSMENT_CREATE_TYPE_VALUES: set[AssessmentCreateType] = { 'full', 'passive_only', 'single_dimension', 'stress_test_only',  }

def check_assessment_create_type(value: str) -> AssessmentCreateType:
    if value in ASSESSMENT_CREATE_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSESSMENT_CREATE_TYPE_VALUES!r}")
