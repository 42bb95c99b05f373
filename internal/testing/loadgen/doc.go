// Package loadgen owns the benchmarks that drive a running Chapar stack from
// outside (`make bench`, scripts/bench.sh). It has no production code: the load
// tools are Go benchmarks in _test files that skip unless the environment names
// a running target, so `go test ./...` never sends traffic.
//
// BenchmarkSimulatorSubmit binds with pkg/smpp to a running carrier simulator
// (LOADGEN_SMSC="mci=127.0.0.1:2775[,irancell=…,rightel=…]") and pipelines b.N
// submit_sm over one bind and over every listed bind, waiting for every
// submit_sm_resp and every delivery receipt: the raw SMPP ceiling that the
// end-to-end rate of the stack is compared with.
package loadgen
