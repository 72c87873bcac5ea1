package conversations

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/internal/textcluster"
	"quire/internal/textcut"
)

// Impacts, from least to most severe (the seeds' definitions): low, minor
// friction; medium, noticeable friction or partial blocking with
// workarounds; high, fully or near-fully blocking, severe regression,
// repeated failures or data-loss risk.
const (
	ImpactLow    = "low"
	ImpactMedium = "medium"
	ImpactHigh   = "high"
)

func impactRank(s string) int {
	switch s {
	case ImpactHigh:
		return 3
	case ImpactMedium:
		return 2
	case ImpactLow:
		return 1
	}
	return 0
}

// Signal kinds: what a sentence says of the severity of a problem.
const (
	SignalBlocking   = "blocking"
	SignalDataLoss   = "data-loss"
	SignalRegression = "regression"
	SignalRepeated   = "repeated-failure"
	SignalWorkaround = "workaround"
	SignalFailure    = "failure"
	SignalFriction   = "friction"
	SignalRequest    = "request"
)

// signalPatterns find the signals, each a list of phrases (regular
// expressions over lower-case text, matched on word boundaries).
var signalPatterns = func() map[string]*regexp.Regexp {
	words := map[string][]string{
		SignalBlocking: {`block(?:s|ed|ing|er)?`, `can(?:no|')?t (?:use|access|log ?in|sign ?in|work|publish|save|open|do anything)`,
			`unable to (?:use|access|log ?in|sign ?in|work|publish|save|open)`, `completely (?:broken|down|stuck|unusable)`,
			`nothing works`, `(?:is|are|went) down`, `outage`, `unusable`, `show ?stopper`, `urgent(?:ly)?`, `production is down`,
			`locked out`, `completely stuck`, `whole team`, `all (?:of )?(?:our|my) users`, `cannot continue`, `can't continue`},
		SignalDataLoss: {`lost`, `los(?:e|ing) (?:my |our |all )?(?:data|work|changes|pages|content)`, `data loss`,
			`(?:got |were |was |been )?(?:deleted|wiped|erased|overwritten)`, `disappear(?:ed|s|ing)?`, `vanish(?:ed|es)?`,
			`(?:is|are) gone`, `corrupt(?:ed|ion)?`, `missing (?:pages|content|data|changes)`},
		SignalRegression: {`since (?:the |your |last |yesterday'?s? )*(?:update|upgrade|release|deploy|version|change)s?`,
			`after (?:the |your |last |yesterday'?s? )*(?:update|upgrade|release|deploy|version)s?`, `used to work`,
			`worked (?:fine |perfectly |well )?(?:before|yesterday|last week|until)`, `regression`, `stopped working`,
			`no longer`, `not anymore`, `anymore`, `broke(?:n)? (?:again|after|since)`},
		SignalRepeated: {`again`, `still`, `every (?:single )?time`, `each time`, `keeps?`, `kept`, `repeatedly`,
			`(?:multiple|several|many|three|3|two|2) times`, `constantly`, `(?:second|third|fourth) time`, `over and over`,
			`always (?:fails|crashes|breaks|times out)`, `persists`},
		SignalWorkaround: {`work ?around`, `for now`, `in the meantime`, `managed to`, `temporar(?:y|ily)`, `by refreshing`,
			`if i (?:refresh|reload|retry)`, `after (?:a )?(?:refresh|reload|retry)`},
		SignalFailure: {`error(?:s)?`, `fail(?:s|ed|ing|ure)?`, `broken`, `break(?:s)?`, `crash(?:es|ed|ing)?`, `bug(?:s|gy)?`,
			`(?:does ?n[o']?t|do ?n[o']?t|won'?t|did ?n[o']?t|is ?n[o']?t|are ?n[o']?t|not) (?:work|load|show|save|open|sync|update|appear|render|send|display)(?:ing|s)?`,
			`can(?:no|')?t`, `cannot`, `unable`, `wrong`, `incorrect(?:ly)?`, `missing`, `time(?:s|d)? ?out`, `exception`,
			`[45]0[0-9]`, `empty`, `blank`, `hangs?`, `freez(?:e|es|ing)`, `slow(?:ly|er)?`, `glitch`, `not working`, `invalid`, `denied`, `rejected`,
			`returns? (?:nothing|no results?|zero results?)`, `nothing happens`, `no results?`, `zero results?`, `never (?:arrives?|finish(?:es)?|loads?|stops|shows? up|works?|downloads?|issued|completes?)`,
			`(?:does ?n[o']?t|do ?n[o']?t|did ?n[o']?t|won'?t|can'?t) (?:find|appear|arrive|receive|resolve|match|include|show up|get|finish|upload|sync|load|work)`,
			`terrible`, `awful`, `horrible`, `expired`, `overwr(?:ote|itten|ites)`, `stopped`, `stuck`, `forever`, `spins`, `laggy`, `lags?`,
			`charged (?:twice|the wrong|for|us|the full)`, `billed`, `double charged`, `out of date`, `pending for`, `cut off`, `run(?:s)? off`,
			`(?:is|are|was|were) not (?:saved|received|imported|issued|renewed|added|found)`, `unauthori[sz]ed`, `too many requests`, `rate limit(?:ed)?`,
			`unsupported`, `not (?:receive|find|load)`},
		SignalFriction: {`confus(?:ing|ed)`, `unclear`, `hard to`, `difficult`, `annoying`, `would be (?:nice|great|helpful)`,
			`(?:i|we) wish`, `feature request`, `suggestion`, `prefer`, `clunky`, `tedious`, `not intuitive`, `can'?t find`},
		SignalRequest: {`how (?:do|can|should|would) (?:i|we|you)`, `is (?:there|it possible)`, `can (?:i|we|you)`,
			`please add`, `could you add`, `any way to`, `where (?:do|can) (?:i|we)`},
	}
	out := map[string]*regexp.Regexp{}
	for k, list := range words {
		out[k] = regexp.MustCompile(`\b(?:` + strings.Join(list, "|") + `)\b`)
	}
	return out
}()

// signalOrder is the order signals are reported in.
var signalOrder = []string{SignalDataLoss, SignalBlocking, SignalRegression, SignalRepeated, SignalFailure,
	SignalWorkaround, SignalFriction, SignalRequest}

// Signal is a severity signal and the words that showed it.
type Signal struct {
	Kind   string
	Phrase string
}

// signalsOf finds the signals of a sentence (lower case), one per kind.
func signalsOf(lower string) []Signal {
	var out []Signal
	for _, k := range signalOrder {
		if m := signalPatterns[k].FindString(lower); m != "" {
			out = append(out, Signal{Kind: k, Phrase: m})
		}
	}
	return out
}

// Impact rates a set of signals, as the seeds define impacts:
//   - high: data loss; blocking with no workaround; a failure that repeats;
//     a regression that blocks or fails;
//   - medium: any other failure, regression or blocking (with a
//     workaround);
//   - low: friction, questions and requests.
func Impact(signals []Signal) string {
	has := map[string]bool{}
	for _, s := range signals {
		has[s.Kind] = true
	}
	failing := has[SignalFailure] || has[SignalBlocking]
	switch {
	case has[SignalDataLoss],
		has[SignalBlocking] && !has[SignalWorkaround],
		has[SignalRepeated] && failing && !has[SignalWorkaround],
		has[SignalRegression] && failing && !has[SignalWorkaround]:
		return ImpactHigh
	case failing, has[SignalRegression]:
		return ImpactMedium
	}
	return ImpactLow
}

// Part is a message of a conversation.
type Part struct {
	Role string
	Body string
}

// Found is an issue found in a conversation.
type Found struct {
	Title string
	// Sentences are the user's words the issue was found in.
	Sentences []string
	Signals   []Signal
	Impact    string
	// Terms are the term counts of its title and sentences.
	Terms textcluster.Vector
	Forms map[string]string
}

// Limits of what the analysis reads of one conversation: the work per
// conversation is bounded whatever was ingested.
const (
	maxAnalysedChars = 20000
	maxTitle         = 120
	maxSentences     = 8
	maxIssues        = 5
)

// topicShift starts a new issue: the user turns to another matter.
var topicShift = regexp.MustCompile(`^(?:also|additionally|another (?:thing|issue|problem|question)|one more thing|separately|on (?:a|another) (?:different|separate|unrelated) (?:note|topic)|second(?:ly)?|in addition|p\.?s\.?|unrelated(?:ly)?|by the way|btw)\b`)

// greeting is what a sentence may start with that says nothing.
var greeting = regexp.MustCompile(`^(?:(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))(?: (?:there|team|all|folks|everyone|support))?[,!.:]?\s*)+`)

// Extract finds the issues a conversation raises: sentences of the user's
// messages (role user) that say something fails, blocks, loses data,
// regressed, keeps failing, is awkward, or ask how to do something. The
// sentences are grouped in order into issues: a new issue starts where the
// user turns to another matter ("Also, ...", "Another problem: ..."), and
// issues about the same terms are merged again. Each issue's impact comes
// from its signals (Impact). The subject, when given, titles the first
// issue. A conversation whose user says nothing of the kind, but asks
// something, gives one low-impact issue of its first message.
func Extract(subject string, parts []Part) []Found {
	var text strings.Builder
	for _, p := range parts {
		if p.Role != "user" {
			continue
		}
		text.WriteString(plain(p.Body))
		text.WriteString("\n")
		if text.Len() > maxAnalysedChars {
			break
		}
	}
	sentences := splitSentences(textcut.Bytes(text.String(), maxAnalysedChars))
	type group struct {
		sentences []string
		signals   []Signal
	}
	var groups []*group
	var cur *group
	for _, s := range sentences {
		lower := strings.ToLower(s)
		sigs := signalsOf(lower)
		shift := topicShift.MatchString(strings.TrimLeft(lower, " -*•"))
		if len(sigs) == 0 {
			continue
		}
		if cur == nil || shift {
			cur = &group{}
			groups = append(groups, cur)
		}
		if len(cur.sentences) < maxSentences {
			cur.sentences = append(cur.sentences, s)
		}
		cur.signals = append(cur.signals, sigs...)
	}
	subject = strings.TrimSpace(plain(subject))
	if len(groups) == 0 {
		// Nothing says what is wrong: the user's first sentence that says
		// something (not a greeting) is what they came for.
		first := ""
		for _, s := range sentences {
			if len(textcluster.Tokenize(s)) >= 3 {
				first = s
				break
			}
		}
		if subject == "" && first == "" {
			return nil
		}
		groups = []*group{{sentences: sentenceIfAny(first)}}
	}
	// Issues about the same terms are one issue; a group too short to
	// say what it is about ("It fails again.") joins the one before.
	var issues []*Found
	for i, g := range groups {
		f := newFound(g.sentences, g.signals)
		if i == 0 && subject != "" {
			f.Title = title(subject)
			addTerms(f, subject)
		}
		if n := len(issues); n > 0 && (len(f.Terms) < 2 || textcluster.Cosine(textcluster.TF(f.Terms), textcluster.TF(issues[n-1].Terms)) >= 0.5) {
			merge(issues[n-1], f)
			continue
		}
		if len(issues) == maxIssues {
			merge(issues[len(issues)-1], f)
			continue
		}
		issues = append(issues, f)
	}
	out := make([]Found, len(issues))
	for i, f := range issues {
		f.Signals = uniqueSignals(f.Signals)
		f.Impact = Impact(f.Signals)
		out[i] = *f
	}
	return out
}

// sentenceIfAny is s as a list of sentences: none when it is empty.
func sentenceIfAny(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func newFound(sentences []string, signals []Signal) *Found {
	f := &Found{Sentences: sentences, Signals: signals, Terms: textcluster.Vector{}, Forms: map[string]string{}}
	for _, s := range sentences {
		addTerms(f, s)
	}
	if len(sentences) > 0 {
		f.Title = title(sentences[0])
	}
	return f
}

func addTerms(f *Found, s string) {
	for _, t := range textcluster.Tokenize(s) {
		f.Terms[t.Stem]++
		if _, ok := f.Forms[t.Stem]; !ok {
			f.Forms[t.Stem] = t.Form
		}
	}
}

func merge(into, f *Found) {
	for _, s := range f.Sentences {
		if len(into.Sentences) < maxSentences {
			into.Sentences = append(into.Sentences, s)
		}
	}
	into.Signals = append(into.Signals, f.Signals...)
	into.Terms.Add(f.Terms)
	for k, v := range f.Forms {
		if _, ok := into.Forms[k]; !ok {
			into.Forms[k] = v
		}
	}
}

func uniqueSignals(in []Signal) []Signal {
	seen := map[string]bool{}
	var out []Signal
	for _, k := range signalOrder {
		for _, s := range in {
			if s.Kind == k && !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// title makes an issue's title of a sentence: without a greeting, at most
// maxTitle characters, cut at a word.
func title(s string) string {
	s = strings.TrimSpace(greeting.ReplaceAllString(strings.TrimSpace(s), ""))
	s = strings.TrimRight(s, " .,;:")
	if s == "" {
		return "Untitled issue"
	}
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if utf8.RuneCountInString(s) <= maxTitle {
		return s
	}
	cut := string([]rune(s)[:maxTitle-1])
	if i := strings.LastIndexByte(cut, ' '); i > maxTitle/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

var (
	tags       = regexp.MustCompile(`(?s)<(?:script|style)[^>]*>.*?</(?:script|style)>|<[^>]*>`)
	mdNoise    = regexp.MustCompile("(?m)^\\s{0,3}(?:#{1,6}\\s|>\\s?|[-*+]\\s|\\d+[.)]\\s)|```[a-z]*|[*_~`]{1,3}")
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	spaces     = regexp.MustCompile(`[ \t\r\f\v]+`)
	sentenceRe = regexp.MustCompile(`[^.!?\n]+(?:[.!?]+|\n|$)`)
)

// plain turns a message body (Markdown or HTML) into plain text.
func plain(body string) string {
	s := body
	if strings.ContainsRune(s, '<') {
		s = tags.ReplaceAllStringFunc(s, func(t string) string {
			switch strings.ToLower(strings.TrimLeft(t, "</")) {
			case "br>", "br/>", "br />", "p>", "div>", "li>":
				return "\n"
			}
			if strings.HasPrefix(strings.ToLower(t), "</p") || strings.HasPrefix(strings.ToLower(t), "</div") || strings.HasPrefix(strings.ToLower(t), "<br") || strings.HasPrefix(strings.ToLower(t), "</li") {
				return "\n"
			}
			return " "
		})
		s = html.UnescapeString(s)
	}
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdNoise.ReplaceAllString(s, "")
	return spaces.ReplaceAllString(s, " ")
}

// splitSentences splits text at sentence ends and line breaks.
func splitSentences(text string) []string {
	var out []string
	for _, m := range sentenceRe.FindAllString(text, -1) {
		if s := strings.TrimSpace(m); utf8.RuneCountInString(s) >= 3 {
			out = append(out, s)
		}
	}
	return out
}
