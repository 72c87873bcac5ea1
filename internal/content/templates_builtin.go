package content

import "quire/internal/document"

// templateFence opens and closes code blocks in the bodies below (raw strings
// cannot hold backquotes).
const templateFence = "```"

// builtinTemplates are the templates Templates lists. Bodies are written in
// the canonical Markdown of package document, so that a page's Markdown
// reads back as written.
var builtinTemplates = parseTemplates([]Template{
	{
		ID:          "getting-started",
		Title:       "Getting started",
		Description: "A welcome page, a quickstart and a FAQ that introduce a product to new readers.",
		Params: []TemplateParam{
			{Name: "homepage", Description: "The product website, linked from the welcome page.", Kinds: []string{document.RefURL}},
			{Name: "support", Description: "Where readers get help (a URL or a user), linked from the FAQ.", Kinds: []string{document.RefURL, document.RefUser}},
		},
		pages: []templatePage{
			{key: "welcome", title: "Welcome", emoji: "1f44b", description: "What this documentation covers and where to start.",
				body: `This space documents the product: what it does, how to set it up and where to get help.{{if .homepage}} To learn more about the product itself, visit [the product website](tpl-param:homepage).{{end}}

## Where to go next

- [Quickstart](tpl-page:quickstart): install the product and finish a first task in a few minutes.
- [FAQ](tpl-page:faq): answers to the questions readers ask most.

{% hint style="info" %}
Replace this text with a short introduction: who the product is for and which problem it solves.
{% endhint %}
`},
			{key: "quickstart", title: "Quickstart", emoji: "1f680", description: "From nothing to a working setup in a few minutes.",
				body: `Follow these steps to go from nothing to a working setup.

## 1. Install

Install the product with your package manager:

` + templateFence + `sh
# Replace with your installation command
install my-product
` + templateFence + `

## 2. Configure

Create a configuration file and set the few values every setup needs. Everything else has a sensible default.

## 3. Run your first task

Run a first task and check its result. When it works, you are ready for the rest of the documentation.

{% hint style="success" %}
Done! Next, read the [FAQ](tpl-page:faq) for the questions new users ask most.
{% endhint %}
`},
			{key: "faq", title: "FAQ", emoji: "2753", description: "Answers to the questions readers ask most.",
				body: `<details><summary>Who is the product for?</summary>

Describe the people and teams the product is made for.

</details>

<details><summary>How much does it cost?</summary>

Explain the plans, or link to the pricing page.

</details>

<details><summary>Where do I report a problem?</summary>

Tell readers how to report bugs and request features.

</details>
{{- if .support}}

Didn't find an answer? [Contact support](tpl-param:support).
{{- end}}
`},
		},
	},
	{
		ID:          "api-reference",
		Title:       "API reference",
		Description: "An API reference group: overview, authentication, errors and endpoints pages around an OpenAPI specification.",
		Params: []TemplateParam{
			{Name: "spec", Description: "The OpenAPI specification the reference documents.", Kinds: []string{document.RefOpenAPI}, Required: true},
			{Name: "status", Description: "The service status page, linked from the errors page.", Kinds: []string{document.RefURL}},
		},
		pages: []templatePage{
			{key: "api", typ: TypeGroup, title: "API reference"},
			{key: "overview", parent: "api", title: "Overview", emoji: "1f4d8", description: "What the API does and how requests look.",
				body: `The API gives programs access to everything the product does. It follows REST conventions: resources have predictable URLs, requests and responses use JSON, and errors use standard HTTP status codes.

## Before you start

- Every request needs a token: see [Authentication](tpl-page:authentication).
- Requests that fail answer with an error object: see [Errors](tpl-page:errors).
- The [endpoints](tpl-page:endpoints) are described by the API's OpenAPI specification.

## Specification

{% content-ref url="tpl-param:spec" %}
[tpl-param:spec](tpl-param:spec)
{% endcontent-ref %}
`},
			{key: "authentication", parent: "api", title: "Authentication", emoji: "1f511", description: "How to authenticate API requests.",
				body: `Authenticate every request with a token in the ` + "`Authorization`" + ` header:

` + templateFence + `sh
curl https://api.example.com/v1/me \
  -H "Authorization: Bearer $TOKEN"
` + templateFence + `

{% hint style="warning" %}
Keep tokens secret: anyone holding a token can act as its owner. Never commit tokens to a repository.
{% endhint %}

## Token scopes

Grant each token only the access it needs, and rotate tokens regularly.
`},
			{key: "errors", parent: "api", title: "Errors", emoji: "26a0", description: "Status codes and the error object.",
				body: `A request that fails answers with an HTTP status code and a JSON error object:

` + templateFence + `json
{ "error": { "code": 404, "message": "No matching resource found" } }
` + templateFence + `

| Status | Meaning |
| --- | --- |
| 400 | The request is invalid: the message names the field. |
| 401 | The token is missing or invalid. |
| 403 | The token does not grant access to the resource. |
| 404 | The resource does not exist. |
| 429 | Too many requests: retry later. |
| 500 | Something went wrong on our side. |
{{- if .status}}

When errors persist, check [the service status](tpl-param:status).
{{- end}}
`},
			{key: "endpoints", parent: "api", title: "Endpoints", emoji: "1f4e1", description: "Every operation of the API.",
				body: `Every operation of the API, with its parameters and responses, as described by the OpenAPI specification:

{% content-ref url="tpl-param:spec" %}
[tpl-param:spec](tpl-param:spec)
{% endcontent-ref %}
`},
		},
	},
	{
		ID:          "knowledge-base",
		Title:       "Knowledge base",
		Description: "A knowledge base home page with how-to guides, troubleshooting and glossary pages.",
		Params: []TemplateParam{
			{Name: "support", Description: "Where readers get help (a URL or a user), linked from the troubleshooting page.", Kinds: []string{document.RefURL, document.RefUser}},
			{Name: "related", Description: "Another space of related documentation, shown on the home page.", Kinds: []string{document.RefSpace}},
		},
		pages: []templatePage{
			{key: "home", title: "Knowledge base", emoji: "1f4da", description: "Find answers, guides and definitions.",
				body: `Find answers to common questions, step-by-step guides and the meaning of the terms we use.

- [How-to guides](tpl-page:how-to): step-by-step instructions for common tasks.
- [Troubleshooting](tpl-page:troubleshooting): what to do when something goes wrong.
- [Glossary](tpl-page:glossary): the terms used across the documentation.
{{- if .related}}

## Related documentation

{% content-ref url="tpl-param:related" %}
[tpl-param:related](tpl-param:related)
{% endcontent-ref %}
{{- end}}
`},
			{key: "how-to", parent: "home", title: "How-to guides", emoji: "1f9ed", description: "Step-by-step instructions for common tasks.",
				body: `Each guide solves one task, from start to finish. Add a child page per guide, named after the task ("Invite a teammate", "Export your data").

## Writing a guide

1. Start with what the reader achieves.
2. List what they need before they begin.
3. Number the steps, one action each.
4. End with how to check that it worked.
`},
			{key: "troubleshooting", parent: "home", title: "Troubleshooting", emoji: "1f527", description: "What to do when something goes wrong.",
				body: `Look up the symptom, then follow the fix.

## Something does not load

- Check your network connection.
- Reload the page, then sign out and in again.

## An action fails with an error

Note the error message and the time it happened: both help to find the cause.
{{- if .support}}

{% hint style="info" %}
Still stuck? [Contact support](tpl-param:support).
{% endhint %}
{{- end}}
`},
			{key: "glossary", parent: "home", title: "Glossary", emoji: "1f4d6", description: "The terms used across the documentation.",
				body: `| Term | Definition |
| --- | --- |
| Space | A collection of pages about one subject. |
| Page | A document in a space. |
`},
		},
	},
	{
		ID:          "product-docs",
		Title:       "Product documentation",
		Description: "Product documentation: an introduction, a Guides group and a Reference group.",
		Params: []TemplateParam{
			{Name: "homepage", Description: "The product website, linked from the introduction.", Kinds: []string{document.RefURL}},
			{Name: "api", Description: "The API documentation (a space, a page or a URL), added as a link page in the Reference group.",
				Kinds: []string{document.RefSpace, document.RefPage, document.RefURL}},
		},
		pages: []templatePage{
			{key: "introduction", title: "Introduction", emoji: "1f44b", description: "What the product is and how this documentation is organized.",
				body: `Welcome to the product documentation.{{if .homepage}} For news and pricing, visit [the product website](tpl-param:homepage).{{end}}

## How this documentation is organized

- **Guides** walk you through tasks, starting with [Installation](tpl-page:installation).
- **Reference** describes every concept and option, starting with [Concepts](tpl-page:concepts).
- [Release notes](tpl-page:release-notes) list what changed in each version.
`},
			{key: "guides", typ: TypeGroup, title: "Guides"},
			{key: "installation", parent: "guides", title: "Installation", emoji: "1f4e6", description: "Install the product.",
				body: `## Requirements

- A supported operating system
- Network access to download the product

## Install

` + templateFence + `sh
install my-product
` + templateFence + `

Then continue with [Configuration](tpl-page:configuration).
`},
			{key: "configuration", parent: "guides", title: "Configuration", emoji: "2699", description: "Adapt the product to your needs.",
				body: `The product reads its settings from a configuration file. Every setting has a default; set only those you need to change.

| Setting | Default | Description |
| --- | --- | --- |
| ` + "`log_level`" + ` | ` + "`info`" + ` | How much the product logs. |
| ` + "`port`" + ` | ` + "`8080`" + ` | The port the product listens on. |
`},
			{key: "upgrading", parent: "guides", title: "Upgrading", emoji: "2b06", description: "Move to a newer version.",
				body: `Read the [release notes](tpl-page:release-notes) of every version between yours and the new one, then:

1. Back up your data.
2. Install the new version.
3. Check that everything works.

{% hint style="warning" %}
Skipping a major version may need extra steps: the release notes list them.
{% endhint %}
`},
			{key: "reference", typ: TypeGroup, title: "Reference"},
			{key: "concepts", parent: "reference", title: "Concepts", emoji: "1f4a1", description: "The ideas behind the product.",
				body: `Explain the few ideas a reader needs to understand the rest of the documentation, one section each.

## First concept

What it is, why it exists, and how it relates to the others.
`},
			{key: "release-notes", parent: "reference", title: "Release notes", emoji: "1f4e3", description: "What changed in each version.",
				body: `## Unreleased

- Describe each user-visible change in one sentence.
`},
			{key: "api-link", parent: "reference", typ: TypeLink, title: "API reference", link: "api", needs: "api"},
		},
	},
	{
		ID:          "changelog",
		Title:       "Changelog",
		Description: "A changelog page in the Keep a Changelog style, with a release checklist.",
		Params: []TemplateParam{
			{Name: "repository", Description: "The source repository, linked for the full history.", Kinds: []string{document.RefURL}},
		},
		pages: []templatePage{
			{key: "changelog", title: "Changelog", emoji: "1f4e3", description: "Every notable change, newest first.",
				body: `All notable changes are listed here, newest first. Versions follow semantic versioning.{{if .repository}} The full history is in [the source repository](tpl-param:repository).{{end}}

## Unreleased

### Added

- New features.

### Changed

- Changes to existing behaviour.

### Fixed

- Bug fixes.

## 1.0.0

### Added

- First release.
`},
			{key: "checklist", parent: "changelog", title: "Release checklist", emoji: "2705", description: "The steps of every release.",
				body: `- [ ] Move the Unreleased entries of the [changelog](tpl-page:changelog) under the new version.
- [ ] Update the version number.
- [ ] Tag the release.
- [ ] Announce the release.
`},
		},
	},
	{
		ID:          "meeting-notes",
		Title:       "Meeting notes",
		Description: "An index of meeting notes, a meeting template and a decision log.",
		Params: []TemplateParam{
			{Name: "owner", Description: "Who runs the meetings, named on the index page.", Kinds: []string{document.RefUser}},
			{Name: "calendar", Description: "The meeting calendar, linked from the index page.", Kinds: []string{document.RefURL}},
		},
		pages: []templatePage{
			{key: "index", title: "Meeting notes", emoji: "1f4dd", description: "Notes of every meeting, newest first.",
				body: `Add one child page per meeting, named after its date (for example 2030-01-31), by copying the [meeting template](tpl-page:template). Record decisions in the [decision log](tpl-page:decisions) too.
{{- if or .owner .calendar}}

{{if .owner}}Meetings are run by [the meeting owner](tpl-param:owner).{{end}}{{if and .owner .calendar}} {{end}}{{if .calendar}}See [the calendar](tpl-param:calendar) for the next dates.{{end}}
{{- end}}
`},
			{key: "template", parent: "index", title: "Meeting template", emoji: "1f4cb", description: "Copy this page for each meeting.",
				body: `## Attendees

- Name

## Agenda

1. Topic

## Notes

Summarize the discussion of each topic.

## Decisions

- Decision, and why

## Action items

- [ ] Task, owner, due date
`},
			{key: "decisions", parent: "index", title: "Decision log", emoji: "2696", description: "Every decision, with its date and reason.",
				body: `| Date | Decision | Reason |
| --- | --- | --- |
| 2030-01-31 | What was decided | Why |
`},
		},
	},
})
