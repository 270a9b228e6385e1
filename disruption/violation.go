package disruption

import (
	"cmp"
	"fmt"

	"github.com/nodeplan/nodeplan/packing/verify"
)

// CommandRule is the rule enum of a command checker (consolidation's and
// drift's Rule): it names itself, and says whether a violation of it
// carries the packing rule of a simulated home that broke.
type CommandRule interface {
	~uint8
	String() string
	Nests() bool
}

// CommandViolation is one broken property of a sequence of disruption
// commands: the index of the command, the rule, for a rule that Nests the
// packing rule (otherwise its zero value), the node or claim and the pod
// ("namespace/name") concerned when there is one, and a sentence a person
// can act on. The zero CommandViolation is about command 0 under the zero
// rule, with no message; CommandViolations are comparable.
type CommandViolation[R CommandRule] struct {
	Command int
	Rule    R
	Packing verify.Rule
	Node    string
	Pod     string
	Message string
}

// String formats v as "command N: Rule: Message", the rule as
// "Rule/PackingRule" when it nests one.
func (v CommandViolation[R]) String() string {
	rule := v.Rule.String()
	if v.Rule.Nests() {
		rule += "/" + v.Packing.String()
	}
	return fmt.Sprintf("command %d: %s: %s", v.Command, rule, v.Message)
}

// CompareViolations orders violations by command, rule, packing rule,
// node, pod and message, for sorting.
func CompareViolations[R CommandRule](a, b CommandViolation[R]) int {
	return cmp.Or(cmp.Compare(a.Command, b.Command), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Packing, b.Packing),
		cmp.Compare(a.Node, b.Node), cmp.Compare(a.Pod, b.Pod), cmp.Compare(a.Message, b.Message))
}
