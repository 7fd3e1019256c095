"""The organization-scoped repositories, one module per concept (issue 10 §2); composed into
:class:`aaaf.store.org_store.OrgStore`."""
