package textcluster

// Stem reduces an English word (lower case ASCII letters) to its stem with
// Porter's algorithm (M. F. Porter, "An algorithm for suffix stripping",
// 1980), so that "failing", "failed" and "fails" count as one term. Words
// with other characters are returned as they are.
func Stem(word string) string {
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return word
		}
	}
	s := &stemmer{b: []byte(word)}
	s.step1ab()
	if len(s.b) > 2 {
		s.step1c()
		s.step2()
		s.step3()
		s.step4()
		s.step5()
	}
	return string(s.b)
}

type stemmer struct {
	b []byte
	j int // end of the stem being examined (exclusive) for m() and friends
}

// cons reports whether b[i] is a consonant.
func (s *stemmer) cons(i int) bool {
	switch s.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !s.cons(i-1)
	}
	return true
}

// m measures the number of consonant sequences in b[0:j]: [C](VC)^m[V].
func (s *stemmer) m() int {
	n, i := 0, 0
	for {
		if i >= s.j {
			return n
		}
		if !s.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i >= s.j {
				return n
			}
			if s.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i >= s.j {
				return n
			}
			if !s.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

// vowelInStem reports a vowel in b[0:j].
func (s *stemmer) vowelInStem() bool {
	for i := 0; i < s.j; i++ {
		if !s.cons(i) {
			return true
		}
	}
	return false
}

// doublec reports a double consonant ending at i.
func (s *stemmer) doublec(i int) bool {
	return i >= 1 && s.b[i] == s.b[i-1] && s.cons(i)
}

// cvc reports consonant-vowel-consonant ending at i, the last not w, x or y.
func (s *stemmer) cvc(i int) bool {
	if i < 2 || !s.cons(i) || s.cons(i-1) || !s.cons(i-2) {
		return false
	}
	switch s.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether b ends with suffix, setting j to where it starts.
func (s *stemmer) ends(suffix string) bool {
	n := len(suffix)
	if n > len(s.b) || string(s.b[len(s.b)-n:]) != suffix {
		return false
	}
	s.j = len(s.b) - n
	return true
}

// setTo replaces b[j:] with r.
func (s *stemmer) setTo(r string) { s.b = append(s.b[:s.j], r...) }

// r replaces the suffix with r when the stem's measure is positive.
func (s *stemmer) r(r string) {
	if s.m() > 0 {
		s.setTo(r)
	}
}

func (s *stemmer) step1ab() {
	if s.b[len(s.b)-1] == 's' {
		switch {
		case s.ends("sses"):
			s.b = s.b[:len(s.b)-2]
		case s.ends("ies"):
			s.setTo("i")
		case len(s.b) >= 2 && s.b[len(s.b)-2] != 's':
			s.b = s.b[:len(s.b)-1]
		}
	}
	if s.ends("eed") {
		if s.m() > 0 {
			s.b = s.b[:len(s.b)-1]
		}
		return
	}
	if (s.ends("ed") || s.ends("ing")) && s.vowelInStem() {
		s.b = s.b[:s.j]
		s.j = len(s.b)
		switch {
		case s.ends("at"):
			s.setTo("ate")
		case s.ends("bl"):
			s.setTo("ble")
		case s.ends("iz"):
			s.setTo("ize")
		case s.doublec(len(s.b) - 1):
			switch s.b[len(s.b)-1] {
			case 'l', 's', 'z':
			default:
				s.b = s.b[:len(s.b)-1]
			}
		default:
			s.j = len(s.b)
			if s.m() == 1 && s.cvc(len(s.b)-1) {
				s.b = append(s.b, 'e')
			}
		}
	}
}

func (s *stemmer) step1c() {
	if s.ends("y") && s.vowelInStem() {
		s.b[len(s.b)-1] = 'i'
	}
}

var step2Rules = []struct{ from, to string }{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func (s *stemmer) step2() {
	for _, r := range step2Rules {
		if s.ends(r.from) {
			s.r(r.to)
			return
		}
	}
}

var step3Rules = []struct{ from, to string }{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func (s *stemmer) step3() {
	for _, r := range step3Rules {
		if s.ends(r.from) {
			s.r(r.to)
			return
		}
	}
}

var step4Suffixes = []string{"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"}

func (s *stemmer) step4() {
	for _, suf := range step4Suffixes {
		if !s.ends(suf) {
			continue
		}
		if suf == "ion" && (s.j == 0 || (s.b[s.j-1] != 's' && s.b[s.j-1] != 't')) {
			return
		}
		if s.m() > 1 {
			s.b = s.b[:s.j]
		}
		return
	}
}

func (s *stemmer) step5() {
	s.j = len(s.b)
	if s.b[len(s.b)-1] == 'e' {
		s.j = len(s.b) - 1
		a := s.m()
		if a > 1 || (a == 1 && !s.cvc(len(s.b)-2)) {
			s.b = s.b[:len(s.b)-1]
		}
	}
	s.j = len(s.b)
	if s.b[len(s.b)-1] == 'l' && s.doublec(len(s.b)-1) && s.m() > 1 {
		s.b = s.b[:len(s.b)-1]
	}
}
