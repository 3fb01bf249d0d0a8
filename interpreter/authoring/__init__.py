"""Writing rules: scenarios, the rule-by-rule diff, starter overlays, validation of any file,
the rules as text."""
