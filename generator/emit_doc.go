package generator

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// namedDoc makes a type's doc comment start with the type's name, as Go
// doc comments do, from the schema's description, lines of which doc is
// the first. A description that is a phrase about the thing becomes a
// sentence about name, the rest of its text unchanged:
//
//	A directory or file ...   Root is a directory or file ...
//	Reply to roots/list ...   ListRootsResult is the reply to roots/list ...
//	Features the client ...   ClientCapabilities are the features the client ...
//	Identifies a prompt ...   PromptReference identifies a prompt ...
//	Used to ask ...           AskParams is used to ask ...
//	What a root points at ... RootKind says what a root points at ...
//
// A description that is a sentence of its own ("If present, ...", "This
// notification ...", "Use X instead.") or that opens with anything but a
// word (code, a link, a number) follows about, a sentence that names the
// type; an empty one is about alone. One that already opens with name, or
// with "A", "An" or "The" and name, stays as it is, but for a participle
// after the name ("An X sent by ..." becomes "X is sent by ..."); "Name:"
// is read as the phrase after it.
func namedDoc(name, about string, doc []string) []string {
	if len(doc) == 0 {
		return []string{about}
	}
	if lead, ok := nameSentence(name, strings.TrimSpace(doc[0])); ok {
		return append([]string{lead}, doc[1:]...)
	}
	return append([]string{about}, doc...)
}

// nameSentence turns the first line of a description into a sentence
// that starts with name, or reports false when it cannot.
func nameSentence(name, first string) (string, bool) {
	if strings.HasPrefix(first+" ", name+" ") {
		return first, true
	}
	for _, article := range []string{"A ", "An ", "The "} {
		if rest, ok := strings.CutPrefix(first+" ", article+name+" "); ok {
			// "A Root names ..." is a sentence; "An X sent by ..." is
			// not, and becomes "X is sent by ...".
			word, tail, _ := strings.Cut(strings.TrimSpace(rest), " ")
			if verbParticiple(word, tail) {
				return name + " is " + strings.TrimSpace(rest), true
			}
			return first, true
		}
	}
	for _, sep := range []string{":", ",", " -", " —"} {
		if after, ok := strings.CutPrefix(first, name+sep); ok {
			return nameSentence(name, strings.TrimSpace(after))
		}
	}
	word, tail, _ := strings.Cut(first, " ")
	if r, _ := utf8.DecodeRuneInString(word); !unicode.IsLetter(r) && r != '_' || strings.Contains(word, "://") {
		return "", false // code, a link, a number, a quotation
	}
	bare := strings.ToLower(strings.TrimRight(word, ".,;:!?"))
	next := strings.ToLower(strings.TrimRight(firstWord(tail), ".,;:!?"))
	lead := name + " "
	switch {
	case slices.Contains(clauseWords, bare),
		(bare == "when" || bare == "where") && strings.Contains(firstSentence(first), ", "):
		return "", false
	case bare == "a" || bare == "an":
		lead += "is " + lowerWord(word)
	case bare == "the" || slices.Contains(determiners, bare):
		lead += isAre(name, tail) + " " + lowerWord(word)
	case slices.Contains(whWords, bare):
		lead += "says " + lowerWord(word)
	case next != "of" && (slices.Contains(docVerbs, bare) || strings.HasSuffix(bare, "ifies") || strings.HasSuffix(bare, "izes")):
		lead += lowerWord(word)
	case verbParticiple(word, tail), slices.Contains(conditions, next):
		// "Sent from the client", or an adjective with its condition:
		// "Present if the client ...".
		lead += "is " + lowerWord(word)
	default:
		// A noun phrase, such as "Reply to roots/list" or "Optional
		// parameters": name is (or are) the thing it names.
		lead += isAre(name, first) + " the " + lowerWord(word)
	}
	if tail != "" {
		lead += " " + tail
	}
	return lead, true
}

// clauseWords open a description that is a sentence, or a clause of one,
// rather than a phrase about the thing: a condition, a pronoun, an
// instruction. Such a description cannot follow "Name is".
var clauseWords = []string{
	"if", "unless", "once", "after", "before", "while", "although", "though", "because", "since",
	"this", "these", "that", "those", "it", "its", "they", "their", "there", "here",
	"we", "our", "you", "your", "to", "for", "in", "on",
	"use", "see", "note", "do", "don't", "must", "should", "may", "can", "please", "e.g.", "i.e.",
}

// determiners open a noun phrase that takes no "the": "Any JSON value".
var determiners = []string{"any", "one", "some", "all", "either", "both", "each", "every", "another"}

// whWords open a clause that says something about the thing: "What a
// root points at", "Whether the client may ...".
var whWords = []string{"what", "whether", "which", "how", "why", "who", "whom", "whose", "when", "where"}

// docVerbs are verbs a description may open with ("Identifies a
// prompt"), chosen among those that rarely open a noun phrase; a verb
// followed by "of" is taken for a plural noun ("Lists of roots").
var docVerbs = []string{
	"represents", "describes", "contains", "holds", "defines", "identifies", "specifies", "carries",
	"lists", "refers", "extends", "indicates", "controls", "provides", "returns", "tells", "marks",
	"says", "gives", "keeps", "stores", "wraps", "selects", "reports", "means", "maps", "lets",
	"allows", "enables", "configures", "determines", "captures", "declares", "advertises",
	"announces", "includes", "asks", "explains", "governs", "points", "shows",
}

// participleFollowers are the words after which a past participle opening
// a description is a verb ("Sent from the client", "Used to ask") rather
// than an adjective ("Restricted schema definitions").
var participleFollowers = []string{
	"by", "from", "to", "when", "whenever", "if", "in", "for", "as", "with", "after", "before", "on",
	"at", "once", "only", "during", "between", "into", "through", "via", "per", "instead", "here",
	"so", "and", "or", "but", "while", "until", "unless", "where", "since", "because",
}

// conditions are the words after which the word that opens a
// description is a predicate ("Present if ...", "Empty when ...").
var conditions = []string{"if", "when", "whenever", "unless", "once", "only", "while", "until"}

// irregularParticiples are the past participles that do not end in "ed".
var irregularParticiples = []string{"sent", "set", "kept", "given", "made", "built", "written", "taken", "shown", "known", "held", "found", "chosen", "left", "put", "read"}

// verbParticiple reports whether word, followed by tail, is a past
// participle used as a verb ("Sent from the client", "Used to ask",
// "Deprecated.") rather than as an adjective ("Restricted schema
// definitions").
func verbParticiple(word, tail string) bool {
	bare := strings.TrimRight(word, ".,;:!?")
	if !participle(strings.ToLower(bare)) {
		return false
	}
	next := strings.ToLower(strings.TrimRight(firstWord(tail), ".,;:!?"))
	return tail == "" || bare != word || slices.Contains(participleFollowers, next)
}

func participle(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") || slices.Contains(irregularParticiples, w)
}

// isAre is the verb that joins name to a noun phrase: "are" when both
// are plural, name by its last word ("ClientCapabilities") and the phrase
// by its head noun (the last word before a preposition, an article, a
// relative word, a participle or punctuation); "is" otherwise, which
// reads well enough in the mixed cases ("InputRequests is the map of
// requests", "ModelHint is the hints to use"). A name ending in a noun of
// either number ("ErrorData") takes the phrase's.
func isAre(name, phrase string) string {
	var head string
	for _, w := range strings.Fields(phrase) {
		bare := strings.TrimRight(w, ".,;:!?")
		lower := strings.ToLower(bare)
		if head != "" && (slices.Contains(phraseStops, lower) || participle(lower)) {
			break
		}
		head = lower
		if bare != w {
			break
		}
	}
	last := strings.ToLower(name[max(strings.LastIndexFunc(name, unicode.IsUpper), 0):])
	if plural(head) && (plural(last) || slices.Contains(eitherNumber, last)) {
		return "are"
	}
	return "is"
}

// eitherNumber are nouns that take "is" or "are": "ErrorData are the
// details".
var eitherNumber = []string{"data", "metadata", "media"}

// phraseStops end the head of a noun phrase.
var phraseStops = []string{
	"a", "an", "the", "of", "for", "to", "that", "which", "who", "whose", "in", "on", "with", "from",
	"by", "as", "at", "or", "and", "when", "where", "if", "this", "these", "its", "their", "is",
	"are", "was", "were", "can", "may", "must", "should", "will", "so", "such", "about", "into",
	"than", "between", "per", "via",
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

// firstSentence is s up to the end of its first sentence.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// lowerWord lowercases the first letter of a word that is not an acronym
// or a name ("JSON-RPC", "MetaObject" and "_meta" stay as they are).
func lowerWord(w string) string {
	if w == "" || !unicode.IsUpper(rune(w[0])) || strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 {
		return w
	}
	return strings.ToLower(w[:1]) + w[1:]
}

// plural guesses whether an English noun is plural.
func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}
