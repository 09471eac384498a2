"""A pod's quality-of-service class, from pkg/apis/core/v1/helper/qos/ in Go."""
