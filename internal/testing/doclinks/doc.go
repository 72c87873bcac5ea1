// Package doclinks checks the links of the project's documentation: the
// README, UPGRADING.md and every page under docs/. Pages link to each
// other's sections, and moving text between them breaks those links
// silently, so the check runs with the tests:
//
//   - every relative link and image (not http, https or mailto) names a
//     file or directory that exists, resolved from the page that holds it;
//   - every fragment, on the same page or on another Markdown page, names
//     a heading of that page by GitHub's anchor (see Slug);
//   - every page under docs/ starts with its title and has a table of
//     contents: before its first second-level heading, a link to each of
//     its second-level headings.
//
// Links inside fenced code blocks and inline code are not links, and
// headings inside fenced code blocks are not headings.
package doclinks
