"""An organization's usage per UTC day (docs/api.md "Usage"), as the API answers it."""

from __future__ import annotations

from pydantic import BaseModel


class UsageDay(BaseModel):
    date: str
    api_calls: int
    events_accepted: int
    assessments_run: int
