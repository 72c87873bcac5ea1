// Package metrics exposes Quire's Prometheus metrics.
package metrics

import (
	"database/sql"
	"net/http"

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
	reg.MustRegister(m.Statements, m.Requests, m.GraphQL,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// WatchDB registers database pool figures.
func (m *Metrics) WatchDB(db *sql.DB) {
	m.Registry.MustRegister(collectors.NewDBStatsCollector(db, "quire"))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}
