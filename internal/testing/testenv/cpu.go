package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// BackendCPU sums the user and system time of the PostgreSQL backends connected
// to database db (their command line names it), read from /proc: benchmarks give
// PostgreSQL's CPU per row beside their own when the server runs on this machine
// (0 when it does not).
func BackendCPU(db string) time.Duration {
	if db == "" {
		return 0
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var ticks int64
	for _, d := range dirs {
		cmd, err := os.ReadFile(d + "/cmdline")
		if err != nil || !strings.HasPrefix(string(cmd), "postgres:") || !strings.Contains(string(cmd), " "+db+" ") {
			continue
		}
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		// After the command's closing parenthesis, utime and stime are fields 12 and 13.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + s
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100
}

// LoadAverage is the machine's load average over 1, 5 and 15 minutes.
func LoadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// ProcessCPU is this process's user and system time: a benchmark's own CPU beside
// BackendCPU's.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
