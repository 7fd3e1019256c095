"""AAAF's inspect_ai sandbox providers, registered when this module loads (the package's
``inspect_ai`` entry point): ``bubblewrap`` and ``aaaf_host`` (docs/stress-tests.md "Sandbox")."""

from aaaf.stress.bubblewrap import BubblewrapSandboxEnvironment
from aaaf.stress.host_sandbox import HostSandboxEnvironment

__all__ = ["BubblewrapSandboxEnvironment", "HostSandboxEnvironment"]
