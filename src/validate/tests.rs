//! Unit tests for validation and coercion.
