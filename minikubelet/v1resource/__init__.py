"""How much of a resource a pod asks for, from pkg/api/v1/resource/ in Go."""
