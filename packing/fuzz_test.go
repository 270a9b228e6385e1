package packing_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// fuzzSolve is the property FuzzSolve checks on a decoded problem and
// options: Solve does not panic; an error wraps ErrInvalidProblem and
// agrees with Validate, or wraps ErrInvalidOptions and agrees with
// Options.Validate (never ErrInternal); a plan passes verify.Plan.
func fuzzSolve(o packing.Options) property {
	return func(p packing.Problem) error {
		plan, err := packing.Solve(p, o)
		switch {
		case err != nil && errors.Is(err, packing.ErrInvalidOptions) && o.Validate() != nil:
			return nil
		case err != nil && !errors.Is(err, packing.ErrInvalidProblem):
			return errors.New("Solve returned an error that does not wrap ErrInvalidProblem: " + err.Error())
		case err != nil && p.Validate() == nil:
			return errors.New("Solve rejected a problem Validate accepts: " + err.Error())
		case err != nil:
			return nil
		}
		if verr := p.Validate(); verr != nil {
			return errors.New("Solve accepted a problem Validate rejects: " + verr.Error())
		}
		if oerr := o.Validate(); oerr != nil {
			return errors.New("Solve accepted options Validate rejects: " + oerr.Error())
		}
		unknown, known := unknownViolations(p, plan)
		switch {
		case len(unknown) > 0:
			return violationsError(unknown)
		case len(known) > 0:
			return &errKnownBug{bugs: known}
		}
		return nil
	}
}

type violationsError []verify.Violation

func (e violationsError) Error() string {
	s := "verify.Plan found violations:"
	for _, v := range e {
		s += "\n  " + v.String()
	}
	return s
}

// knownFuzzFailures are inputs (by inputID) of the corpus in
// testdata/fuzz/FuzzSolve that fail because of a solver bug not fixed
// yet; they are skipped, naming the bug. Remove an entry when its bug is
// fixed.
var knownFuzzFailures = map[string]string{}

// inputID is the first 16 hex digits of the SHA-256 of data.
func inputID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// fuzzSeeds are the seed corpus of FuzzSolve: no bytes, short patterns,
// and random byte strings of several lengths from a fixed PCG.
func fuzzSeeds() [][]byte {
	seeds := [][]byte{nil, {0}, {255}, {1, 2, 3, 4, 5, 6, 7, 8}, make([]byte, 256)}
	seeds = append(seeds, problemgen.RandomInputs(1, 2, 48, 16, 6)...)
	return seeds
}

// FuzzSolve decodes arbitrary bytes into a problem (problemgen.DecodeRest,
// possibly invalid, with hostile strings and extreme numbers) and options
// (problemgen.DecodeOptions, possibly invalid) and checks that Solve never
// panics, rejects invalid problems with ErrInvalidProblem and invalid
// options with ErrInvalidOptions, and returns plans verify.Plan accepts (known
// solver bugs aside, see knownBug). Its
// seed corpus runs in the normal go test; fuzz it with
//
//	go test -run xxx -fuzz FuzzSolve -fuzztime 10m ./packing/
func FuzzSolve(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id := inputID(data)
		if why, ok := knownFuzzFailures[id]; ok {
			t.Skipf("input %s shows a known solver bug: %s", id, why)
		}
		p, rest := problemgen.DecodeRest(data)
		o := problemgen.DecodeOptions(rest)
		prop := fuzzSolve(o)
		err := safely(prop, p)
		if !isFailure(err) {
			if err != nil {
				t.Logf("skipped: %v", err) // see knownBug
			}
			return
		}
		{
			m := problemgen.Minimize(p, func(q packing.Problem) bool { return isFailure(safely(prop, q)) })
			t.Fatalf("input %s, options %+v: %v\nminimised problem, failing with: %v\n%s", id, o, err, safely(prop, m), problemgen.Dump(m))
		}
	})
}
