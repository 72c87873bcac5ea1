// Package metrics exposes Quire's Prometheus metrics.
package metrics

import (
	"database/sql"
	"net/http"
	"regexp"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors of one process.
type Metrics struct {
	Registry *prometheus.Registry
	// Statements counts every SQL statement sent to the database.
	Statements prometheus.Counter
	// Requests observes HTTP request durations by route template and status.
	Requests *prometheus.HistogramVec
	// GraphQL observes GraphQL operation durations by operation name and outcome.
	GraphQL *prometheus.HistogramVec
	// GraphQLErrors counts GraphQL errors by operation name and code.
	GraphQLErrors *prometheus.CounterVec
	// JobsPending is the number of items waiting for a background job.
	JobsPending *prometheus.GaugeVec
	// JobRuns counts background job runs by job and result (ran, skipped, failed).
	JobRuns *prometheus.CounterVec
	// ReaderPages counts the pages of published sites that could be kept
	// by the reader's page cache, by whether they were served from it
	// (cached) or rendered.
	ReaderPages *prometheus.CounterVec

	listWorkers sync.Once
}

// New returns metrics on a fresh registry, with Go runtime collectors.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Statements: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quire_db_statements_total",
			Help: "SQL statements sent to the database.",
		}),
		Requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "quire_http_request_duration_seconds",
			Help:    "HTTP request durations by route template, method and status.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method", "status"}),
		GraphQL: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "quire_graphql_operation_duration_seconds",
			Help:    "GraphQL operation durations by operation name and outcome.",
			Buckets: prometheus.DefBuckets,
		}, []string{"operation", "outcome"}),
	}
	m.GraphQLErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "quire_graphql_errors_total",
		Help: "GraphQL errors by operation name and extensions.code.",
	}, []string{"operation", "code"})
	m.JobsPending = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "quire_jobs_pending",
		Help: "Items waiting for a background job (the job queue depth), by job.",
	}, []string{"job"})
	m.JobRuns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "quire_job_runs_total",
		Help: "Background job runs by job and result: ran (this process held the lease), skipped (another did), failed.",
	}, []string{"job", "result"})
	m.ReaderPages = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "quire_reader_pages_total",
		Help: "Answers of published sites that the page cache may keep, by source: cached (served from it) or rendered.",
	}, []string{"source"})
	reg.MustRegister(m.Statements, m.Requests, m.GraphQL, m.GraphQLErrors, m.JobsPending, m.JobRuns, m.ReaderPages,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(liveHeap)), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// liveHeap adds go_gc_heap_live_bytes to the Go collector's figures: the
// heap the last collection found live. Unlike the heap in use, which with
// a high GOGC swings up to several times the live heap between
// collections, it grows only when memory is kept.
var liveHeap = collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)}

// WatchDB registers database pool figures.
func (m *Metrics) WatchDB(db *sql.DB) {
	m.Registry.MustRegister(collectors.NewDBStatsCollector(db, "quire"))
}

// WatchListWorkers registers the gauge of the goroutines kept to marshal
// the items of GraphQL lists, read from workers (graph/lists.Workers). The
// GraphQL server registers it when it is built: metrics sits below the
// GraphQL layer and does not import it. Later calls do nothing, so that
// servers built on the same metrics share the gauge.
func (m *Metrics) WatchListWorkers(workers func() int) {
	m.listWorkers.Do(func() {
		m.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "quire_graphql_list_workers",
			Help: "Goroutines kept to marshal the items of GraphQL lists, idle or busy (at most 256 stay idle).",
		}, func() float64 { return float64(workers()) }))
	})
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}
