"""Statistics written for AAAF: bootstrap, agreement, power, Hotelling T², verdicts (pure)."""
