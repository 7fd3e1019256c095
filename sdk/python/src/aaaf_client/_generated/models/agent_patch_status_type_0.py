from typing import Literal

AgentPatchStatusType0 = Literal['active', 'enrolled', 'suspended']

AGENT_PATCH_STATUS_TYPE_0_VALUES: set[AgentPatchStatusType0] = { 'active', 'enrolled', 'suspended',  }

def check_agent_patch_status_type_0(value: str) -> AgentPatchStatusType0:
    if value in AGENT_PATCH_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AGENT_PATCH_STATUS_TYPE_0_VALUES!r}")
