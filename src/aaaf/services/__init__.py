"""Services: orchestration of the store and the pure core (the thin shell every front end shares)."""
