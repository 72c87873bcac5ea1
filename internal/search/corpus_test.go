package search_test

// corpus is the documentation of a fictional self-hosted analytics
// service, Beacon, as a team would write it: groups of pages, each page a
// few sections under headings. The search tests ask it what a reader
// would ask.
type corpusPage struct {
	group, parent, title, description, markdown string
}

var corpus = []corpusPage{
	{group: "Getting started", title: "Introduction", description: "What Beacon is and who it is for.", markdown: `Beacon collects product analytics events from your applications and keeps them in your own database.

## How Beacon works

Your applications send events to the Beacon server over HTTPS. The server validates each event, stores it in PostgreSQL and makes it available to dashboards within seconds.

## Who should read this guide

Operators who install and run Beacon, and developers who send events to it.
`},
	{group: "Getting started", title: "Installation", description: "Install the Beacon server on Linux, macOS or with Docker.", markdown: `Beacon ships as a single binary and as a container image.

## System requirements

A 64-bit Linux or macOS machine with 2 GB of memory, and PostgreSQL 13 or later.

## Install with the package manager

Download the package for your distribution and install it with apt or dnf. The package creates a beacon system user and a service unit.

## Install with Docker

Pull the image and run it with the environment variables described in the configuration reference. Mount a volume for the spool directory so that queued events survive a restart.

## Verify the installation

Open the health endpoint in a browser: it answers ok when the server can reach its database.
`},
	{group: "Getting started", title: "Configure the server", description: "Set the listen address, the database and the retention period.", markdown: `The server reads its settings from a configuration file and from environment variables. Environment variables win over the file.

## Configuration file

The file is written in TOML. Each setting has a default; a minimal file only names the database.

## Database connection

Give the PostgreSQL connection string in database.url. The server runs its migrations when it starts.

## Retention

Events older than the retention period are deleted every night. The default keeps events for 400 days.
`},
	{group: "Getting started", title: "Quickstart", markdown: `Send your first event in five minutes.

## Create a project

Every event belongs to a project. Create one in the dashboard and copy its ingestion key.

## Send an event

Post a JSON object with a name and properties to the events endpoint, with the ingestion key in the Authorization header.

## See it in a dashboard

Open the live view: the event shows up within seconds.
`},
	{group: "Guides", title: "Webhooks", description: "Get notified when an alert fires.", markdown: `Webhooks tell another system about alerts as they happen.

## Register a webhook

Give the URL to call and the alerts it should receive. Beacon sends a test delivery right away.

## Payload

Each delivery is a POST request with a JSON body describing the alert, the metric and the threshold that was crossed.

## Signatures

Every delivery carries an HMAC signature of its body in the Beacon-Signature header. Verify it with your webhook secret before trusting the payload.

## Retries

A delivery that fails is retried with exponential backoff for up to a day.
`},
	{group: "Guides", title: "Alerts", markdown: `Alerts watch a metric and fire when it crosses a threshold.

## Define an alert

Choose a metric, a threshold and a window. An alert fires when the metric stays above the threshold for the whole window.

## Notification channels

Alerts notify by email, by chat message, or through webhooks to your own systems.

## Silence an alert

Silence an alert during maintenance so that it does not notify anyone.
`},
	{group: "Guides", title: "Dashboards", markdown: `Dashboards show charts of your events.

## Charts

A chart plots a metric over time. Charts can be grouped by any event property.

## Sharing

Share a dashboard with a read-only link. Links can expire.

## Filters

Filters narrow every chart of a dashboard to the events that match, such as one country or one release.
`},
	{group: "Guides", title: "Tracking events from the browser", markdown: `The JavaScript library sends events from web pages.

## Load the library

Add the script tag to your pages, or install the package from npm and import it.

## Identify users

Call identify once a user has signed in, so that their events are tied to one profile.

## Respect consent

The library sends nothing until consent is given when consent mode is on.
`},
	{group: "Operations", title: "Backups", description: "Back up and restore the events database.", markdown: `All of Beacon's state is in its PostgreSQL database.

## Back up PostgreSQL

Run pg_dump every night and keep the dumps on another machine. For large databases use continuous archiving of the write-ahead log.

## Restore a backup

Stop the server, restore the dump with pg_restore into an empty database, then start the server: it finds the schema up to date.

## Test your backups

A backup that was never restored is a hope, not a backup. Restore one every month on a spare machine.
`},
	{group: "Operations", title: "Deploy on Kubernetes", markdown: `Beacon runs well on Kubernetes with the official Helm chart.

## Install the chart

Add the chart repository and install the release with your values file. The chart creates a deployment, a service and an ingress.

## Scaling

Run several replicas behind the service: they share the database and need no coordination.

## Upgrades

Upgrade the release one replica at a time; migrations run when the first new replica starts.
`},
	{group: "Operations", title: "Deploy with Docker Compose", markdown: `A Compose file runs Beacon and PostgreSQL on one host.

## The compose file

Declare two services, beacon and postgres, and a named volume for the database files.

## Start the stack

Run docker compose up and open port 8080. Logs of both containers show with docker compose logs.
`},
	{group: "Operations", title: "Monitoring", markdown: `Beacon exposes its own metrics for Prometheus.

## Metrics endpoint

Scrape the metrics endpoint for request latency, ingestion throughput and queue depth.

## Logs

The server writes JSON logs to standard error, one line per request.

## Health checks

The health endpoint answers ok when the database is reachable; use it for liveness and readiness probes.
`},
	{group: "Operations", title: "Troubleshooting", markdown: `What to look at when something goes wrong.

## Events do not show up

Check that the ingestion key is valid and that the clock of the sending machine is right: events from the future are refused.

## The server does not start

Read the last lines of the log. A wrong database password and a port already in use are the usual causes.

## Slow dashboards

Large time ranges over billions of events are slow. Narrow the range or add a rollup.
`},
	{group: "API reference", title: "Authentication", markdown: `Every request to the API needs an API token.

## Create a token

Create tokens in the account settings. A token is shown once; store it in your secret manager.

## Send the token

Send the token in the Authorization header with the Bearer scheme.

## Revoke a token

Revoke a token that leaked: requests with it are refused at once.
`},
	{group: "API reference", title: "Rate limits", description: "How many requests the API accepts.", markdown: `The API limits how many requests each token may send.

## Limits

Each token may send 1000 requests per minute. Ingestion has its own, higher limit.

## Headers

Every answer says how much of the limit is left in the RateLimit-Remaining header.

## When you exceed the limit

Requests over the limit get status 429 and a Retry-After header. Back off and try again later.
`},
	{group: "API reference", title: "Events API", markdown: `Send and read events.

## Send events

POST a batch of up to 500 events. Each event has a name, a timestamp and properties.

## Read events

GET events of a project, filtered by name and time range, a page at a time.

## Errors

A batch with an invalid event is refused as a whole with status 400 naming the event at fault.
`},
	{group: "API reference", title: "Projects API", markdown: `Manage projects.

## List projects

GET the projects your token may see.

## Rotate the ingestion key

POST to rotate a project's ingestion key; the old key keeps working for an hour.
`},
	{group: "Reference", title: "Configuration reference", description: "Every setting of the configuration file.", markdown: `Every setting, its default and its environment variable.

## listen

The address and port the server listens on. Default 0.0.0.0:8080.

## database.url

The PostgreSQL connection string. Required.

## retention.days

How many days events are kept. Default 400.

## smtp

The mail server alerts are sent through: host, port, user and password.
`},
	{group: "Reference", title: "Glossary", markdown: `Words this documentation uses.

## Event

Something that happened in your application, with a name, a time and properties.

## Metric

A number computed from events over time, such as daily active users.

## Project

A set of events with its own ingestion key and dashboards.
`},
	{group: "Reference", title: "Changelog", markdown: `What changed in each release.

## 3.2

Dashboards load twice as fast. Webhook deliveries are signed.

## 3.1

Alerts can be silenced. The Helm chart supports autoscaling.

## 3.0

Beacon requires PostgreSQL 13 or later.
`},
	{group: "Reference", title: "FAQ", markdown: `Questions people ask.

## Does Beacon use cookies?

No. The browser library keeps its identifier in local storage, and only with consent when consent mode is on.

## Can I import events from another tool?

Yes: export them as JSON lines and send them in batches through the events API.

## Is there a hosted version?

No, Beacon is self-hosted only.
`},
}
