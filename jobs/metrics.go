package jobs

import (
	"fmt"
	"slices"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// QueueCollector reads every asynq queue through an inspector at scrape time
// (docs/metrics.md): the tasks by state, the latency (age of the oldest pending
// task) and the tasks processed and failed. The figures are the fleet's, so
// every worker serving it shows the same: aggregate them with max, not sum.
type QueueCollector struct{ insp *asynq.Inspector }

// NewQueueCollector returns a collector over insp (closed by its owner).
func NewQueueCollector(insp *asynq.Inspector) QueueCollector { return QueueCollector{insp} }

var (
	descQueueTasks = prometheus.NewDesc("chapar_queue_tasks",
		"Tasks in an asynq queue, by state: pending, active, scheduled, retry, archived (dead), completed.", []string{"queue", "state"}, nil)
	descQueueLatency = prometheus.NewDesc("chapar_queue_latency_seconds",
		"Age of the oldest pending task of the queue (0 when none waits).", []string{"queue"}, nil)
	descQueueProcessed = prometheus.NewDesc("chapar_queue_processed_total",
		"Tasks of the queue handled, failed ones included (asynq's cumulative count).", []string{"queue"}, nil)
	descQueueFailed = prometheus.NewDesc("chapar_queue_failed_total",
		"Task runs of the queue that failed (asynq's cumulative count).", []string{"queue"}, nil)
	descQueuePaused = prometheus.NewDesc("chapar_queue_paused", "1 while the queue is paused.", []string{"queue"}, nil)
	descQueueUp     = prometheus.NewDesc("chapar_queue_inspect_up",
		"1 when the last scrape could read the queues from Redis, else 0.", nil, nil)
)

// Describe sends the queue metrics' descriptors.
func (c QueueCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descQueueTasks, descQueueLatency, descQueueProcessed, descQueueFailed, descQueuePaused, descQueueUp} {
		ch <- d
	}
}

// QueueInfos reads every asynq queue, in name order; a queue that cannot be
// read is left out.
func QueueInfos(insp *asynq.Inspector) ([]*asynq.QueueInfo, error) {
	queues, err := insp.Queues()
	if err != nil {
		return nil, fmt.Errorf("list queues: %w", err)
	}
	slices.Sort(queues)
	out := make([]*asynq.QueueInfo, 0, len(queues))
	for _, q := range queues {
		if info, err := insp.GetQueueInfo(q); err == nil {
			out = append(out, info)
		}
	}
	return out, nil
}

// Collect reads every queue; a queue that cannot be read is left out.
func (c QueueCollector) Collect(ch chan<- prometheus.Metric) {
	infos, err := QueueInfos(c.insp)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(descQueueUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descQueueUp, prometheus.GaugeValue, 1)
	for _, info := range infos {
		q := info.Queue
		gauge := prometheus.GaugeValue
		for state, n := range map[string]int{"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled,
			"retry": info.Retry, "archived": info.Archived, "completed": info.Completed} {
			ch <- prometheus.MustNewConstMetric(descQueueTasks, gauge, float64(n), q, state)
		}
		ch <- prometheus.MustNewConstMetric(descQueueLatency, gauge, info.Latency.Seconds(), q)
		ch <- prometheus.MustNewConstMetric(descQueueProcessed, prometheus.CounterValue, float64(info.ProcessedTotal), q)
		ch <- prometheus.MustNewConstMetric(descQueueFailed, prometheus.CounterValue, float64(info.FailedTotal), q)
		paused := 0.0
		if info.Paused {
			paused = 1
		}
		ch <- prometheus.MustNewConstMetric(descQueuePaused, gauge, paused, q)
	}
}
