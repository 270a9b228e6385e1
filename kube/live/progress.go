package live

import (
	"fmt"
	"io"
	"strconv"
	"time"
)

// progressAfter is how long a read runs before it reports, and then how
// often at most.
const progressAfter = time.Second

// progress writes a line now and then during a long read. The zero
// progress (no writer) writes nothing.
type progress struct {
	w     io.Writer
	now   func() time.Time
	start time.Time
	last  time.Time // of the last line; zero before the first
}

// report says that n objects of resource have been read, when there are
// any, the read has lasted progressAfter and the last line is as old.
func (p *progress) report(n int, resource string) {
	if p.w == nil || n == 0 {
		return
	}
	t := p.now()
	if t.Sub(p.start) < progressAfter || (!p.last.IsZero() && t.Sub(p.last) < progressAfter) {
		return
	}
	p.last = t
	fmt.Fprintf(p.w, "read %s %s…\n", thousands(n), resource)
}

// thousands writes n with a comma between groups of three digits:
// "12,000".
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
