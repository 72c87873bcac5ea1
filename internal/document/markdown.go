package document

// Markdown spellings.
//
// CommonMark and GFM constructs map to blocks and marks directly:
//
//	# / ## / ###            heading-1 / heading-2 / heading-3 (#### and deeper: heading-3)
//	# Title {#custom-id}    heading data.id
//	- item / 1. item        list-unordered / list-ordered (data.start when not 1)
//	- [ ] / - [x]           list-tasks; list-item data.checked
//	```lang                 code, data.syntax = lang, one code-line per line
//	> quote                 blockquote
//	---                     divider
//	| a | b | (GFM table)   table (see table.go)
//	![alt](url "caption")   images > image; a paragraph of nothing but images
//	                        becomes an images block, other images are inline-image
//	[text](url)             link (see RefFromURL for page, anchor, file, ... refs)
//	<https://...>, www.x    link (GFM autolinks)
//	**b** *i* ~~s~~ `c`     bold, italic, strikethrough, code marks
//	<kbd> <sup> <sub>       keyboard, superscript, subscript marks
//	<mark style="color:red;background-color:blue;">  color mark
//	<br>                    line break inside a paragraph, heading or cell
//
// Blocks CommonMark lacks use the GitBook-style liquid tags and HTML:
//
//	{% hint style="info" %}          hint (style: info, warning, danger,
//	...                              success; anything else reads as info)
//	{% endhint %}
//
//	{% tabs %}                       tabs > tabs-item (data.title)
//	{% tab title="First" %}
//	...
//	{% endtab %}
//	{% endtabs %}
//
//	{% stepper %}{% step %}...{% endstep %}{% endstepper %}      stepper
//	{% columns %}{% column %}...{% endcolumn %}{% endcolumns %}  columns
//
//	<details><summary>Title</summary>  expandable: the title (inline
//	                                 Markdown, one line) and a body of
//	body                             blocks; <summary> may also sit on the
//	                                 line after <details>
//	</details>
//
//	$$                               math block (data.formula)
//	formula
//	$$
//	$$x^2$$                          inline-math, inside a paragraph
//
//	{% file src="file://<fileId>" %} file block with data.caption; the
//	caption                          caption may also sit on the tag's line:
//	{% endfile %}                    {% file src="..." %}caption{% endfile %}.
//	                                 A src that is not a file reference
//	                                 becomes a paragraph with a link.
//
//	{% content-ref url="page://<id>" %}  content-ref; the url is read like a
//	[title](page://<id>)                 link destination, the link inside
//	{% endcontent-ref %}                 is ignored on input
//
//	{% embed url="https://..." %}    embed
//
//	{% code title="app.js" overflow="wrap" lineNumbers="true" %}
//	```js                            code block attributes (title, overflow,
//	...                              lineNumbers, fullWidth, expandable)
//	```
//	{% endcode %}
//
// Attribute values are double-quoted; a '"' or '\' inside is escaped with a
// backslash.
//
// Nesting follows the reference, not Markdown: where Markdown nests a block
// the reference does not allow (a code block in a blockquote or hint, an
// image in a list item, a table in a tab, a hint in a hint), FromMarkdown
// keeps the content in an allowed form: code becomes a paragraph of
// code-marked lines, images become inline images, math becomes inline
// math, tables become one paragraph per row, and containers are unwrapped.
//
// ToMarkdown writes one canonical form: ATX headings, "-" bullets ("*" for a
// list right after another), fenced code, tight nested lists, and backslash
// escapes for anything that would read as syntax. An empty HTML comment
// "<!-- -->" fills an empty list item and separates two emphasis runs that
// would otherwise merge; FromMarkdown drops HTML comments.
