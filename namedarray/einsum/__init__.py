"""Named einsum (placeholder until the einsum engine lands)."""
