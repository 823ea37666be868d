//! Prometheus metrics: the `chorus_` families of one process (to be built).
