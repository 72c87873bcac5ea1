package document

// This file is the type table: for every block and inline type, whether it is
// void, what its children may be, and which data it requires.

type childKind int

const (
	childNone    childKind = iota // void: no children
	childBlocks                   // block children from an allowed set
	childInlines                  // text and inlines
	childText                     // text only (plus extra inline types)
)

type blockSpec struct {
	void     bool
	children childKind
	// allowed lists the permitted child block types (childBlocks) or the
	// permitted inline types besides text (childInlines, childText).
	allowed set
	// fragments validates one fragment; nil means the type has none.
	fragments func(f *Node, path *jsonPath) error
	data      func(d *dataCheck)
}

type set map[string]bool

func setOf(groups ...[]string) set {
	s := set{}
	for _, g := range groups {
		for _, t := range g {
			s[t] = true
		}
	}
	return s
}

var (
	essentials = []string{BlockParagraph, BlockHeading1, BlockHeading2, BlockHeading3,
		BlockListOrdered, BlockListUnordered, BlockListTasks, BlockDivider}
	allInlines = []string{InlineLink, InlineEmoji, InlineIcon, InlineExpression, InlineMath,
		InlineImage, InlineAnnotation, InlineMention, InlineButton}

	// Where each block type may appear.
	ctxTop = setOf(essentials, []string{BlockQuote, BlockHint, BlockImages, BlockFile, BlockDrawing,
		BlockEmbed, BlockCode, BlockMath, BlockExpandable, BlockTabs, BlockTable, BlockSwagger,
		BlockOpenAPIOperation, BlockOpenAPISchemas, BlockOpenAPIWebhook, BlockContentRef,
		BlockIntegration, BlockReusableContent, BlockStepper,
		// Not listed among the reference's top-level blocks, but nothing
		// else may contain them.
		BlockColumns, BlockIf})
	ctxListItem = setOf(essentials, []string{BlockCode, BlockHint, BlockQuote, BlockMath, BlockTable})
	ctxQuote    = setOf(essentials, []string{BlockQuote})
	ctxHint     = setOf(essentials)
	ctxTab      = setOf(essentials, []string{BlockContentRef, BlockCode, BlockEmbed, BlockFile, BlockImages,
		BlockDrawing, BlockHint, BlockQuote, BlockMath, BlockIntegration})
	ctxExpandableBody = setOf(essentials, []string{BlockImages, BlockCode, BlockTable, BlockHint,
		BlockQuote, BlockReusableContent})
	ctxColumn = setOf(essentials, []string{BlockImages, BlockCode, BlockHint, BlockContentRef, BlockDrawing,
		BlockEmbed, BlockFile, BlockIntegration, BlockMath, BlockQuote, BlockTable})
	ctxAnnotationBody = setOf(essentials, []string{BlockCode})
	ctxCaption        = setOf([]string{BlockParagraph})
	ctxAnyBlock       set // every block type; filled in init
)

var blockSpecs map[string]blockSpec
var inlineSpecs map[string]blockSpec

var textAlignments = []string{"start", "center", "end"}

func init() {
	headingData := func(d *dataCheck) {
		d.pattern("id", headingIDPattern)
		d.enum("align", false, textAlignments...)
	}
	openAPIData := func(d *dataCheck) { d.ref("ref", true, RefOpenAPI) }
	blockSpecs = map[string]blockSpec{
		BlockParagraph: {children: childInlines, allowed: setOf(allInlines),
			data: func(d *dataCheck) { d.enum("align", false, textAlignments...) }},
		BlockHeading1:      {children: childInlines, allowed: setOf(allInlines), data: headingData},
		BlockHeading2:      {children: childInlines, allowed: setOf(allInlines), data: headingData},
		BlockHeading3:      {children: childInlines, allowed: setOf(allInlines), data: headingData},
		BlockListOrdered:   {children: childBlocks, allowed: setOf([]string{BlockListItem}), data: func(d *dataCheck) { d.number("start") }},
		BlockListUnordered: {children: childBlocks, allowed: setOf([]string{BlockListItem})},
		BlockListTasks:     {children: childBlocks, allowed: setOf([]string{BlockListItem})},
		BlockListItem:      {children: childBlocks, allowed: ctxListItem, data: func(d *dataCheck) { d.boolean("checked") }},
		BlockDivider:       {void: true},
		BlockQuote:         {children: childBlocks, allowed: ctxQuote},
		BlockHint: {children: childBlocks, allowed: ctxHint,
			data: func(d *dataCheck) { d.enum("style", true, HintInfo, HintWarning, HintDanger, HintSuccess) }},
		BlockIf: {children: childBlocks, allowed: ctxTop, data: func(d *dataCheck) { d.str("expression", true) }},
		BlockImages: {children: childBlocks, allowed: setOf([]string{BlockImage}), data: func(d *dataCheck) {
			d.enum("align", false, "center", "left", "right")
			d.boolean("fullWidth")
			d.boolean("withFrame")
		}},
		BlockImage: {void: true, fragments: captionFragment, data: func(d *dataCheck) {
			d.ref("ref", true, RefURL, RefFile)
			d.ref("refDark", false, RefURL, RefFile)
			d.length("width")
			d.length("height")
			d.str("alt", false)
		}},
		BlockFile: {void: true, data: func(d *dataCheck) {
			d.ref("ref", true, RefFile)
			d.str("caption", false)
		}},
		BlockDrawing: {void: true, data: func(d *dataCheck) { d.ref("ref", false, RefFile) }},
		BlockEmbed: {void: true, data: func(d *dataCheck) {
			d.str("url", true)
			d.boolean("fullWidth")
		}},
		BlockCode: {children: childBlocks, allowed: setOf([]string{BlockCodeLine}), data: func(d *dataCheck) {
			d.str("syntax", false)
			d.str("title", false)
			d.enum("overflow", false, "scroll", "wrap")
			d.boolean("lineNumbers")
			d.boolean("fullWidth")
			d.boolean("expandable")
			d.integer("collapsedLineCount", 1)
		}},
		BlockCodeLine: {children: childText, allowed: setOf([]string{InlineAnnotation, InlineExpression}),
			data: func(d *dataCheck) { d.boolean("highlighted") }},
		BlockMath:       {void: true, data: func(d *dataCheck) { d.str("formula", true) }},
		BlockExpandable: {void: true, fragments: expandableFragment},
		BlockTabs: {children: childBlocks, allowed: setOf([]string{BlockTabsItem}),
			data: func(d *dataCheck) { d.boolean("fullWidth") }},
		BlockTabsItem: {children: childBlocks, allowed: ctxTab, data: func(d *dataCheck) { d.str("title", false) }},
		BlockTable:    {void: true, fragments: anyFragment, data: tableData},
		BlockSwagger: {void: true, data: func(d *dataCheck) {
			d.ref("ref", true, RefFile, RefURL)
			d.boolean("expanded")
			d.boolean("fullWidth")
		}},
		BlockOpenAPIOperation: {void: true, data: openAPIOperationData},
		BlockOpenAPISchemas:   {void: true, data: openAPISchemasData},
		BlockOpenAPIWebhook:   {void: true, data: openAPIData},
		BlockContentRef:       {void: true, data: func(d *dataCheck) { d.ref("ref", true) }},
		BlockIntegration: {void: true, data: func(d *dataCheck) {
			d.str("integration", true)
			d.str("block", true)
			d.object("props", true)
			d.str("url", false)
			d.boolean("fullWidth")
		}},
		BlockReusableContent: {void: true, data: func(d *dataCheck) { d.ref("ref", true, RefReusableContent) }},
		BlockStepper:         {children: childBlocks, allowed: setOf([]string{BlockStepperStep})},
		BlockStepperStep:     {children: childBlocks, allowed: ctxTab, data: func(d *dataCheck) { d.str("icon", false) }},
		BlockColumns: {children: childBlocks, allowed: setOf([]string{BlockColumn}),
			data: func(d *dataCheck) { d.boolean("fullWidth") }},
		BlockColumn: {children: childBlocks, allowed: ctxColumn, data: func(d *dataCheck) {
			d.length("width")
			d.enum("verticalAlignment", false, "top", "middle", "bottom")
		}},
	}
	ctxAnyBlock = set{}
	for t := range blockSpecs {
		ctxAnyBlock[t] = true
	}

	inlineSpecs = map[string]blockSpec{
		InlineLink: {children: childText, allowed: setOf([]string{InlineImage}),
			data: func(d *dataCheck) { d.ref("ref", true) }},
		InlineEmoji:      {void: true, data: func(d *dataCheck) { d.str("code", true) }},
		InlineIcon:       {void: true, data: func(d *dataCheck) { d.str("icon", true); d.enum("color", false, textColors...) }},
		InlineExpression: {void: true, data: func(d *dataCheck) { d.str("expression", true) }},
		InlineMath:       {void: true, data: func(d *dataCheck) { d.str("formula", true) }},
		InlineImage: {void: true, data: func(d *dataCheck) {
			d.ref("ref", true, RefURL, RefFile)
			d.ref("refDark", false, RefURL, RefFile)
			d.str("caption", false)
			d.str("alt", false)
			d.enum("size", false, "original", "line")
		}},
		InlineAnnotation: {children: childText, fragments: annotationFragment},
		InlineMention:    {void: true, data: func(d *dataCheck) { d.ref("ref", true) }},
		InlineButton: {void: true, data: func(d *dataCheck) {
			d.str("label", true)
			d.enum("kind", true, "primary", "secondary")
			d.ref("ref", true)
		}},
	}
}

var textColors = []string{"default", "green", "blue", "red", "orange", "yellow", "purple",
	"$primary", "$info", "$success", "$warning", "$danger"}

var markTypes = setOf([]string{MarkBold, MarkItalic, MarkCode, MarkKeyboard, MarkStrikethrough,
	MarkColor, MarkSuperscript, MarkSubscript})

var tableDefinitionTypes = []string{"text", "number", "checkbox", "files", "users", "rating",
	"select", "content-ref", "image"}
