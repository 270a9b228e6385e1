package kube

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/resources"
)

// KubeletConfiguration is an EC2NodeClass's spec.kubelet (and a
// karpenter.sh/v1beta1 NodePool's spec.template.spec.kubelet), the fields
// of Karpenter v1.14's type. maxPods, podsPerCore, systemReserved,
// kubeReserved and evictionHard (memory.available, nodefs.available)
// change what a node holds and are applied to the pool's catalog
// ([Cluster.Problem]); the others do not (evictionSoft neither, as in
// Karpenter v1.14) and are only checked.
type KubeletConfiguration struct {
	ClusterDNS                  []string          `json:"clusterDNS,omitempty"`
	MaxPods                     *int32            `json:"maxPods,omitempty"`
	PodsPerCore                 *int32            `json:"podsPerCore,omitempty"`
	SystemReserved              map[string]string `json:"systemReserved,omitempty"`
	KubeReserved                map[string]string `json:"kubeReserved,omitempty"`
	EvictionHard                map[string]string `json:"evictionHard,omitempty"`
	EvictionSoft                map[string]string `json:"evictionSoft,omitempty"`
	EvictionSoftGracePeriod     map[string]string `json:"evictionSoftGracePeriod,omitempty"`
	EvictionMaxPodGracePeriod   *int32            `json:"evictionMaxPodGracePeriod,omitempty"`
	ImageGCHighThresholdPercent *int32            `json:"imageGCHighThresholdPercent,omitempty"`
	ImageGCLowThresholdPercent  *int32            `json:"imageGCLowThresholdPercent,omitempty"`
	CPUCFSQuota                 *bool             `json:"cpuCFSQuota,omitempty"`
}

// reservedKeys and evictionSignals are the keys Karpenter's CRD accepts.
var (
	reservedKeys    = []string{"cpu", "memory", "ephemeral-storage", "pid"}
	evictionSignals = []string{"memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"}
)

// settings converts k, for nodes of family, checking it as Karpenter's
// CRD does. Errors are fieldErrors below the kubelet ("maxPods: …").
func (k *KubeletConfiguration) settings(family instancetypes.AMIFamily) (instancetypes.Kubelet, error) {
	out := instancetypes.Kubelet{Family: family}
	if k == nil {
		return out, nil
	}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"maxPods", k.MaxPods}, {"podsPerCore", k.PodsPerCore}, {"evictionMaxPodGracePeriod", k.EvictionMaxPodGracePeriod}} {
		if f.v != nil && *f.v < 0 {
			return out, atField(f.name, fmt.Errorf("%d is negative", *f.v))
		}
	}
	if err := checkPercents(k.ImageGCHighThresholdPercent, k.ImageGCLowThresholdPercent); err != nil {
		return out, err
	}
	if k.MaxPods != nil {
		out.MaxPods, out.HasMaxPods = int64(*k.MaxPods), true
	}
	if k.PodsPerCore != nil {
		out.PodsPerCore = int64(*k.PodsPerCore)
	}
	var err error
	if out.SystemReserved, err = reserved("systemReserved", k.SystemReserved); err != nil {
		return out, err
	}
	if out.KubeReserved, err = reserved("kubeReserved", k.KubeReserved); err != nil {
		return out, err
	}
	if out.MemoryAvailable, out.NodeFSAvailable, err = signals("evictionHard", k.EvictionHard); err != nil {
		return out, err
	}
	if _, _, err = signals("evictionSoft", k.EvictionSoft); err != nil {
		return out, err
	}
	return out, gracePeriods(k.EvictionSoftGracePeriod, k.EvictionSoft)
}

// checkPercents checks imageGCHighThresholdPercent and
// imageGCLowThresholdPercent: 0..100, high above low.
func checkPercents(high, low *int32) error {
	for _, f := range []struct {
		name string
		v    *int32
	}{{"imageGCHighThresholdPercent", high}, {"imageGCLowThresholdPercent", low}} {
		if f.v != nil && (*f.v < 0 || *f.v > 100) {
			return atField(f.name, fmt.Errorf("%d is outside 0..100", *f.v))
		}
	}
	if high != nil && low != nil && *high <= *low {
		return atField("imageGCHighThresholdPercent", fmt.Errorf("%d must be above imageGCLowThresholdPercent %d", *high, *low))
	}
	return nil
}

// reserved reads systemReserved or kubeReserved: non-negative quantities
// of cpu, memory, ephemeral-storage and pid. pid, which no pod requests,
// is checked and left out.
func reserved(field string, m map[string]string) (map[resources.Name]int64, error) {
	var out map[resources.Name]int64
	for _, k := range sortedKeys(m) {
		if !slices.Contains(reservedKeys, k) {
			return nil, atField(field+key(k), fmt.Errorf("is not one of %s", strings.Join(reservedKeys, ", ")))
		}
		n, err := quantityOf(resources.Name(k), m[k])
		if err != nil {
			return nil, atField(field+key(k), err)
		}
		if k == "pid" {
			continue
		}
		if out == nil {
			out = map[resources.Name]int64{}
		}
		out[resources.Name(k)] = n
	}
	return out, nil
}

// quantityOf reads a non-negative quantity in the unit of resource name
// (millicores for cpu).
func quantityOf(name resources.Name, s string) (int64, error) {
	if err := bounded(s); err != nil {
		return 0, fmt.Errorf("%q %v", abbreviate(s), err)
	}
	l, err := resources.Parse(map[resources.Name]string{name: s})
	if err != nil {
		return 0, fmt.Errorf("%q %s", abbreviate(s), reason(err))
	}
	return l.Get(name), nil
}

// signals reads evictionHard or evictionSoft: a percentage or a quantity
// for each signal, and returns the thresholds of memory.available and
// nodefs.available.
func signals(field string, m map[string]string) (mem, nodefs instancetypes.Threshold, err error) {
	for _, k := range sortedKeys(m) {
		if !slices.Contains(evictionSignals, k) {
			return mem, nodefs, atField(field+key(k), fmt.Errorf("is not one of %s", strings.Join(evictionSignals, ", ")))
		}
		t, err := threshold(k, m[k])
		if err != nil {
			return mem, nodefs, atField(field+key(k), err)
		}
		switch k {
		case "memory.available":
			mem = t
		case "nodefs.available":
			nodefs = t
		}
	}
	return mem, nodefs, nil
}

// threshold reads an eviction threshold: "5%" (0..100) or a quantity.
func threshold(key, s string) (instancetypes.Threshold, error) {
	if digits, ok := strings.CutSuffix(s, "%"); ok {
		p, err := strconv.ParseFloat(digits, 64)
		if err != nil || p < 0 || p > 100 {
			return instancetypes.Threshold{}, fmt.Errorf("%q is not a percentage 0%%..100%%", abbreviate(s))
		}
		return instancetypes.Threshold{Percent: p, IsPercent: true, Set: true}, nil
	}
	name := resources.Memory // bytes
	if strings.HasSuffix(key, ".inodesFree") || key == "pid.available" {
		name = resources.Pods // a count
	}
	n, err := quantityOf(name, s)
	return instancetypes.Threshold{Quantity: n, Set: true}, err
}

// gracePeriods checks evictionSoftGracePeriod: a duration for each signal,
// and a signal for each of evictionSoft's, as Karpenter's CRD requires.
func gracePeriods(periods, soft map[string]string) error {
	const field = "evictionSoftGracePeriod"
	for _, k := range sortedKeys(periods) {
		if _, err := duration(periods[k]); err != nil {
			return atField(field+key(k), err)
		}
		if _, ok := soft[k]; !ok {
			return atField(field+key(k), errors.New("has no matching evictionSoft signal"))
		}
	}
	for _, k := range sortedKeys(soft) {
		if _, ok := periods[k]; !ok {
			return atField(field+key(k), errors.New("evictionSoft signal has no matching evictionSoftGracePeriod"))
		}
	}
	return nil
}

// families maps an AMI family, as spec.amiFamily or an alias names it, to
// what decides a node's pods and overhead.
var families = map[string]instancetypes.AMIFamily{
	"al2": instancetypes.DefaultFamily, "al2023": instancetypes.DefaultFamily, "custom": instancetypes.DefaultFamily,
	"bottlerocket": instancetypes.Bottlerocket,
	"windows2019":  instancetypes.Windows, "windows2022": instancetypes.Windows, "windows2025": instancetypes.Windows,
}

// family is the class's AMI family as the AWS provider reads it:
// spec.amiFamily, else the family of its alias, else Custom.
func (c *EC2NodeClass) family() instancetypes.AMIFamily {
	name := c.Spec.AMIFamily
	for _, t := range c.Spec.AMISelectorTerms {
		if f, _, ok := strings.Cut(t.Alias, "@"); ok && name == "" {
			name = f
		}
	}
	return families[strings.ToLower(name)]
}

// kubelet returns the class's kubelet settings for its family. Errors
// name spec.kubelet's field.
func (c *EC2NodeClass) kubelet() (instancetypes.Kubelet, error) {
	k, err := c.Spec.Kubelet.settings(c.family())
	return k, atField("spec.kubelet", err)
}

// firstSet names the first field of k that changes a node's allocatable,
// for errors about applying them; "" when none is set.
func (k *KubeletConfiguration) firstSet() string {
	if k == nil {
		return ""
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"maxPods", k.MaxPods != nil}, {"podsPerCore", k.PodsPerCore != nil}, {"systemReserved", len(k.SystemReserved) > 0},
		{"kubeReserved", len(k.KubeReserved) > 0}, {"evictionHard", len(k.EvictionHard) > 0}} {
		if f.set {
			return f.name
		}
	}
	return ""
}
