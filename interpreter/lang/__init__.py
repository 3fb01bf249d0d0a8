"""The expression language shared by the stages: grammar, syntax trees, types."""
