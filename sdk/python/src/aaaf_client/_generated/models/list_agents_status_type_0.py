from typing import Literal

ListAgentsStatusType0 = Literal['active', 'archived', 'enrolled', 'suspended']

LIST_AGENTS_STATUS_TYPE_0_VALUES: set[ListAgentsStatusType0] = { 'active', 'archived', 'enrolled', 'suspended',  }

def check_list_agents_status_type_0(value: str) -> ListAgentsStatusType0:
    if value in LIST_AGENTS_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_AGENTS_STATUS_TYPE_0_VALUES!r}")
