from typing import Literal

ListAssessmentsStatusType0 = Literal['completed', 'failed', 'in_progress', 'pending']

LIST_ASSESSMENTS_STATUS_TYPE_0_VALUES: set[ListAssessmentsStatusType0] = { 'completed', 'failed', 'in_progress', 'pending',  }

def check_list_assessments_status_type_0(value: str) -> ListAssessmentsStatusType0:
    if value in LIST_ASSESSMENTS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_ASSESSMENTS_STATUS_TYPE_0_VALUES!r}")
