"""Human-readable reports: per-agent Markdown, fleet summary, comparison HTML."""
