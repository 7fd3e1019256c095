from typing import Literal

LibraryUploadVisibility = Literal['private', 'shared']

LIBRARY_UPLOAD_VISIBILITY_VALUES: set[LibraryUploadVisibility] = { 'private', 'shared',  }

def check_library_upload_visibility(value: str) -> LibraryUploadVisibility:
    if value in LIBRARY_UPLOAD_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIBRARY_UPLOAD_VISIBILITY_VALUES!r}")
