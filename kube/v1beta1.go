package kube

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	corev1 "k8s.io/api/core/v1"
)

// Karpenter's API groups and the v1beta1 versions Load converts to v1.
const (
	karpenterGroup      = "karpenter.sh"
	karpenterAWSGroup   = "karpenter.k8s.aws"
	karpenterV1beta1    = karpenterGroup + "/v1beta1"
	karpenterAWSV1beta1 = karpenterAWSGroup + "/v1beta1"
)

// ErrNotConvertible is wrapped by the error about a field of a v1beta1
// Karpenter object that has no faithful v1 equivalent nodeplan can model.
var ErrNotConvertible = errors.New("cannot be converted to v1")

// The v1beta1 conversion follows Karpenter v1.0's conversion webhooks
// (kubernetes-sigs/karpenter pkg/apis/v1/nodepool_conversion.go and
// nodeclaim_conversion.go, aws/karpenter-provider-aws
// pkg/apis/v1/ec2nodeclass_conversion.go) and applies the v1beta1 CRD
// defaults the API server would have applied first. The compatibility
// annotations the webhooks add (compatibility.karpenter.sh/…) are not
// added: nodeplan reads none of them.

// nodePoolV1beta1 is the part of a karpenter.sh/v1beta1 NodePool that has
// a v1 counterpart nodeplan reads.
type nodePoolV1beta1 struct {
	Metadata ObjectMeta          `json:"metadata"`
	Spec     nodePoolSpecV1beta1 `json:"spec"`
}

// nodePoolSpecV1beta1 is spec of a v1beta1 NodePool.
type nodePoolSpecV1beta1 struct {
	Template struct {
		Metadata ObjectMeta           `json:"metadata,omitempty"`
		Spec     nodeClaimSpecV1beta1 `json:"spec"`
	} `json:"template"`
	Disruption disruptionV1beta1   `json:"disruption"`
	Limits     corev1.ResourceList `json:"limits,omitempty"`
	Weight     *int32              `json:"weight,omitempty"`
}

// nodeClaimSpecV1beta1 is spec.template.spec of a v1beta1 NodePool.
type nodeClaimSpecV1beta1 struct {
	Taints        []corev1.Taint        `json:"taints,omitempty"`
	StartupTaints []corev1.Taint        `json:"startupTaints,omitempty"`
	Requirements  []Requirement         `json:"requirements"`
	Kubelet       *KubeletConfiguration `json:"kubelet"`
	// Resources is read and dropped, as v1 templates have none.
	Resources    *corev1.ResourceRequirements `json:"resources,omitempty"`
	NodeClassRef *struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Name       string `json:"name"`
	} `json:"nodeClassRef"`
}

// disruptionV1beta1 is spec.disruption of a v1beta1 NodePool.
type disruptionV1beta1 struct {
	ConsolidateAfter    *string `json:"consolidateAfter"`
	ConsolidationPolicy string  `json:"consolidationPolicy"`
	ExpireAfter         string  `json:"expireAfter"`
	Budgets             []struct {
		Nodes    string  `json:"nodes"`
		Schedule *string `json:"schedule,omitempty"`
		Duration string  `json:"duration,omitempty"`
	} `json:"budgets"`
}

// v1 converts the NodePool. Karpenter's rules, after the v1beta1 defaults
// (consolidationPolicy WhenUnderutilized, expireAfter 720h):
// WhenUnderutilized becomes WhenEmptyOrUnderutilized with consolidateAfter
// 0s; WhenEmpty keeps its consolidateAfter; spec.disruption.expireAfter
// moves to spec.template.spec.expireAfter; nodeClassRef {apiVersion, kind,
// name} becomes {group, kind, name} (an empty kind or apiVersion takes
// EC2NodeClass, karpenter.k8s.aws); template resources are dropped. The
// kubelet settings stay with the pool and take the place of its
// EC2NodeClass's spec.kubelet, as Karpenter v1.0's conversion kept them
// (its compatibility annotation) for the AWS provider to use. Values the
// v1beta1 CRD rejects are errors.
func (np *nodePoolV1beta1) v1() (NodePool, error) {
	out := NodePool{APIVersion: KarpenterAPIVersion, Kind: KindNodePool, Metadata: np.Metadata}
	s, t := &np.Spec, &np.Spec.Template
	out.Spec.Weight, out.Spec.Limits = s.Weight, s.Limits
	out.Spec.Template.Metadata = t.Metadata
	ts := &out.Spec.Template.Spec
	ts.Taints, ts.StartupTaints, ts.Requirements = t.Spec.Taints, t.Spec.StartupTaints, t.Spec.Requirements
	if _, err := t.Spec.Kubelet.settings(instancetypes.DefaultFamily); err != nil {
		return out, atField("spec.template.spec.kubelet", err)
	}
	out.kubelet = t.Spec.Kubelet
	if r := t.Spec.NodeClassRef; r != nil {
		ts.NodeClassRef = &NodeClassReference{Name: r.Name, Kind: cmp.Or(r.Kind, KindEC2NodeClass),
			Group: cmp.Or(group(r.APIVersion), karpenterAWSGroup)}
	}
	ts.ExpireAfter = cmp.Or(s.Disruption.ExpireAfter, "720h")
	d, err := s.Disruption.v1()
	out.Spec.Disruption = d
	return out, atField("spec.disruption", err)
}

func (d *disruptionV1beta1) v1() (Disruption, error) {
	var out Disruption
	for _, b := range d.Budgets {
		out.Budgets = append(out.Budgets, Budget{Nodes: b.Nodes, Schedule: b.Schedule, Duration: b.Duration})
	}
	switch d.ConsolidationPolicy {
	case "", "WhenUnderutilized":
		if d.ConsolidateAfter != nil && *d.ConsolidateAfter != Never {
			return out, atField("consolidateAfter", errors.New("cannot be combined with consolidationPolicy WhenUnderutilized (karpenter.sh/v1beta1)"))
		}
		out.ConsolidationPolicy, out.ConsolidateAfter = "WhenEmptyOrUnderutilized", "0s"
	case "WhenEmpty":
		if d.ConsolidateAfter == nil {
			return out, atField("consolidateAfter", errors.New("must be set with consolidationPolicy WhenEmpty (karpenter.sh/v1beta1)"))
		}
		out.ConsolidationPolicy, out.ConsolidateAfter = "WhenEmpty", *d.ConsolidateAfter
	default:
		return out, atField("consolidationPolicy", fmt.Errorf("%q is not WhenUnderutilized or WhenEmpty (karpenter.sh/v1beta1)", d.ConsolidationPolicy))
	}
	return out, nil
}

// ec2NodeClassV1beta1 is a karpenter.k8s.aws/v1beta1 EC2NodeClass: the v1
// fields nodeplan reads, which v1beta1 spells the same.
type ec2NodeClassV1beta1 struct {
	Metadata ObjectMeta         `json:"metadata"`
	Spec     EC2NodeClassSpec   `json:"spec"`
	Status   EC2NodeClassStatus `json:"status"`
}

// annotationAliasVersion is the AWS provider's compatibility annotation
// that pins the version of the alias its conversion creates.
const annotationAliasVersion = "compatibility.karpenter.k8s.aws/v1-alias-version"

// v1 converts the EC2NodeClass by the AWS provider's rules: AL2, AL2023,
// Bottlerocket, Windows2019 and Windows2022 without amiSelectorTerms get
// the alias family@version (version from [annotationAliasVersion], else
// latest) in place of amiFamily; Ubuntu keeps its amiSelectorTerms
// (amiFamily AL2, which bootstraps it) and,
// without block device mappings, gets Ubuntu's default root volume
// (/dev/sda1, 20Gi encrypted gp3); other families keep their terms. An
// EC2NodeClass left without amiSelectorTerms (Ubuntu, Custom or no
// family), which Karpenter v1 cannot launch from, is an error.
func (c *ec2NodeClassV1beta1) v1() (EC2NodeClass, error) {
	out := EC2NodeClass{APIVersion: KarpenterAWSAPIVersion, Kind: KindEC2NodeClass, Metadata: c.Metadata,
		Spec: c.Spec, Status: c.Status}
	version := cmp.Or(c.Metadata.Annotations[annotationAliasVersion], "latest")
	if _, ok := c.Metadata.Annotations[annotationAliasVersion]; ok {
		out.Metadata.Annotations = maps.Clone(c.Metadata.Annotations)
		delete(out.Metadata.Annotations, annotationAliasVersion)
	}
	switch family := c.Spec.AMIFamily; family {
	case "AL2", "AL2023", "Bottlerocket", "Windows2019", "Windows2022":
		if len(out.Spec.AMISelectorTerms) == 0 {
			out.Spec.AMISelectorTerms = []SelectorTerm{{Alias: strings.ToLower(family) + "@" + version}}
			out.Spec.AMIFamily = ""
		}
	case "Ubuntu":
		out.Spec.AMIFamily = "AL2"
		if out.Spec.BlockDeviceMappings == nil {
			out.Spec.BlockDeviceMappings = []BlockDeviceMapping{{DeviceName: "/dev/sda1",
				EBS: &EBSVolume{Encrypted: new(true), VolumeType: "gp3", VolumeSize: "20Gi"}}}
		}
	}
	if len(out.Spec.AMISelectorTerms) == 0 {
		return out, atField("spec.amiSelectorTerms", fmt.Errorf("%w: amiFamily %q without amiSelectorTerms has no v1 equivalent "+
			"(Karpenter v1 launches nothing from it)", ErrNotConvertible, c.Spec.AMIFamily))
	}
	return out, nil
}

// convert records one object converted to v1 for the summary warning.
func (b *builder) convert(o *object) {
	if b.converted == nil {
		b.converted = map[string]int{}
	}
	b.converted[o.head.APIVersion+" "+o.head.Kind]++
}

func (b *builder) nodePoolV1beta1(o *object) error {
	var old nodePoolV1beta1
	if err := b.decode(o, &old); err != nil {
		return err
	}
	np, err := old.v1()
	if err != nil {
		return wrap(KindNodePool, "", old.Metadata.Name, err)
	}
	b.convert(o)
	keep(b, o, &b.in.pools, np)
	return nil
}

// nodeClaimV1beta1 reads a v1beta1 NodeClaim: the metadata and status
// nodeplan reads are the same in v1.
func (b *builder) nodeClaimV1beta1(o *object) error {
	b.convert(o)
	return nodeClaims(b, o)
}

func (b *builder) ec2NodeClassV1beta1(o *object) error {
	var old ec2NodeClassV1beta1
	if err := b.decode(o, &old); err != nil {
		return err
	}
	c, err := old.v1()
	if err != nil {
		return wrap(KindEC2NodeClass, "", old.Metadata.Name, err)
	}
	b.convert(o)
	keep(b, o, &b.in.EC2NodeClasses, c)
	return nil
}
