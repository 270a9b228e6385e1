//go:build unix

// Command loadtime measures kube.Load as the nodeplan command meets it:
// once, in a fresh process, whose heap starts small.
//
//	go run ./internal/podlists/loadtime -gen lean -n 100000 -o /tmp/lean.json
//	go run ./internal/podlists/loadtime -gen lean -n 100000 -yaml -o /tmp/lean.yaml
//	go build -o /tmp/loadtime ./internal/podlists/loadtime && /tmp/loadtime /tmp/lean.json
//
// With -gen (rich or lean, podlists' Rich and Lean) it writes a list of
// -n pods to -o, as JSON or, with -yaml, YAML. Given files, it loads
// them as one kube.Load and prints the pods, the time Load took and the
// process's peak resident memory (getrusage), then exits; -cpuprofile
// writes a CPU profile of the load.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/podlists"
	"sigs.k8s.io/yaml"
)

func main() {
	gen := flag.String("gen", "", "write a pod list: rich or lean")
	n := flag.Int("n", 100_000, "pods in the list -gen writes")
	asYAML := flag.Bool("yaml", false, "-gen writes YAML")
	out := flag.String("o", "", "the file -gen writes")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the load to this file")
	flag.Parse()
	var err error
	if *gen != "" {
		err = write(*gen, *n, *asYAML, *out)
	} else {
		err = load(flag.Args(), *profile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtime:", err)
		os.Exit(1)
	}
}

func write(kind string, n int, asYAML bool, out string) error {
	var data []byte
	switch kind {
	case "rich":
		data = podlists.Rich(n)
	case "lean":
		data = podlists.Lean(n)
	default:
		return fmt.Errorf("-gen %q: want rich or lean", kind)
	}
	if out == "" {
		return errors.New("-gen needs -o")
	}
	if asYAML {
		var err error
		if data, err = yaml.JSONToYAML(data); err != nil {
			return err
		}
	}
	return os.WriteFile(out, data, 0o644)
}

func load(files []string, profile string) (err error) {
	if len(files) == 0 {
		return errors.New("no files to load (or -gen to write one)")
	}
	sources := make([]kube.Source, len(files))
	size := 0
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		sources[i], size = kube.Source{Name: name, Data: data}, size+len(data)
	}
	if profile != "" {
		f, ferr := os.Create(profile)
		if ferr != nil {
			return ferr
		}
		if ferr = pprof.StartCPUProfile(f); ferr != nil {
			return errors.Join(ferr, f.Close())
		}
		defer func() {
			pprof.StopCPUProfile()
			err = errors.Join(err, f.Close())
		}()
	}
	start := time.Now()
	c, err := kube.Load(sources...)
	took := time.Since(start)
	if err != nil {
		return err
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	fmt.Printf("%d pods from %.1f MB in %.3f s, peak RSS %d MB\n", len(c.Pods), float64(size)/1e6, took.Seconds(), ru.Maxrss/1024)
	return nil
}
