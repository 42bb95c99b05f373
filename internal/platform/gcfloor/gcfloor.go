// Package gcfloor gives a process's garbage collector a heap floor: the heap
// may grow to the floor (GC_HEAP_FLOOR_MB) before a collection, and above it to
// twice the live heap, as with Go's default GOGC=100. Go's own floor is 4 MB, so
// a process whose live heap is a few megabytes (a worker between imports: 3–8
// MB) collected several times a second under load, each collection waking
// threads on every core; with the floor it collects tens of times less often.
//
// It sets the collector's percentage (debug.SetGCPercent) after every
// collection from the live heap that collection found, so memory stays
// bounded by max(floor, 2 × live) plus what Go keeps beside the heap. A GOGC
// in the environment wins: the operator has chosen.
package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// DefaultFloorMB is the floor, in MiB, when the setting is not given.
const DefaultFloorMB = 128

// goMinimum is Go's own floor at GOGC=100 (4 MiB): the runtime never sets a
// goal below it scaled by the percentage.
const goMinimum = 4 << 20

// Start sets the floor to floorMB MiB for the rest of the process's life; 0 or
// less, or GOGC in the environment, leaves Go's default. It reports whether
// the floor is on.
func Start(floorMB int) bool {
	if floorMB <= 0 || os.Getenv("GOGC") != "" {
		return false
	}
	floor := uint64(floorMB) << 20
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func()
	tune = func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(Percent(sample[0].Value.Uint64(), floor))
		}
		watch(tune)
	}
	tune()
	return true
}

// Percent is the collector's percentage that lets a heap whose live part is
// live bytes grow to floor before the next collection, and never less than
// Go's default 100. Below 4 MiB live (and before the first collection, when
// live is 0) Go's own minimum, 4 MiB scaled by the percentage, sets the goal.
func Percent(live, floor uint64) int {
	switch {
	case live*2 >= floor && live > 0:
		return 100
	case live < goMinimum:
		return max(int(floor*100/goMinimum), 100)
	}
	return int(floor*100/live - 100)
}

// watch calls f once after the next collection: the cleanup of an object that
// nothing references runs after the collection that found it unreachable.
func watch(f func()) {
	sentinel := new([16]byte)
	runtime.AddCleanup(sentinel, func(struct{}) { f() }, struct{}{})
}
