package kube

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The AWS provider's API group and version, and its node class kind.
const (
	KarpenterAWSAPIVersion = "karpenter.k8s.aws/v1"
	KindEC2NodeClass       = "EC2NodeClass"
)

// EC2NodeClass reads the YAML (or JSON) of the AWS provider's
// karpenter.k8s.aws/v1 EC2NodeClass: the selector terms, the launch
// settings whose change drifts a node, and the status the provider
// resolved. Other fields are ignored, but inside spec.kubelet and
// spec.metadataOptions, which it reads whole, where [Load] rejects them.
// The zero EC2NodeClass is unnamed and invalid.
type EC2NodeClass struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Metadata   ObjectMeta         `json:"metadata"`
	Spec       EC2NodeClassSpec   `json:"spec"`
	Status     EC2NodeClassStatus `json:"status"`
}

// EC2NodeClassSpec is the part of an EC2NodeClass spec nodeplan reads.
// AMIFamily and Kubelet decide what its nodes hold ([Cluster.Problem]).
type EC2NodeClassSpec struct {
	AMIFamily                  string                `json:"amiFamily,omitempty"`
	Kubelet                    *KubeletConfiguration `json:"kubelet,omitempty"`
	AMISelectorTerms           []SelectorTerm        `json:"amiSelectorTerms,omitempty"`
	SubnetSelectorTerms        []SelectorTerm        `json:"subnetSelectorTerms,omitempty"`
	SecurityGroupSelectorTerms []SelectorTerm        `json:"securityGroupSelectorTerms,omitempty"`
	Role                       string                `json:"role,omitempty"`
	InstanceProfile            string                `json:"instanceProfile,omitempty"`
	UserData                   string                `json:"userData,omitempty"`
	BlockDeviceMappings        []BlockDeviceMapping  `json:"blockDeviceMappings,omitempty"`
	MetadataOptions            *MetadataOptions      `json:"metadataOptions,omitempty"`
	Tags                       map[string]string     `json:"tags,omitempty"`
}

// SelectorTerm is one amiSelectorTerms, subnetSelectorTerms or
// securityGroupSelectorTerms entry; a term selects by at least one field.
type SelectorTerm struct {
	ID    string            `json:"id,omitempty"`
	Name  string            `json:"name,omitempty"`
	Alias string            `json:"alias,omitempty"`
	Owner string            `json:"owner,omitempty"`
	SSM   string            `json:"ssmParameter,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
}

func (t SelectorTerm) empty() bool {
	return t.ID == "" && t.Name == "" && t.Alias == "" && t.SSM == "" && len(t.Tags) == 0
}

// BlockDeviceMapping is one spec.blockDeviceMappings entry.
type BlockDeviceMapping struct {
	DeviceName string     `json:"deviceName,omitempty"`
	EBS        *EBSVolume `json:"ebs,omitempty"`
}

// EBSVolume is a block device mapping's ebs; VolumeSize is a Kubernetes
// quantity such as "20Gi".
type EBSVolume struct {
	VolumeSize          string `json:"volumeSize,omitempty"`
	VolumeType          string `json:"volumeType,omitempty"`
	IOPS                *int64 `json:"iops,omitempty"`
	Throughput          *int64 `json:"throughput,omitempty"`
	Encrypted           *bool  `json:"encrypted,omitempty"`
	DeleteOnTermination *bool  `json:"deleteOnTermination,omitempty"`
	KMSKeyID            string `json:"kmsKeyID,omitempty"`
	SnapshotID          string `json:"snapshotID,omitempty"`
}

// MetadataOptions is spec.metadataOptions.
type MetadataOptions struct {
	HTTPEndpoint            string `json:"httpEndpoint,omitempty"`
	HTTPProtocolIPv6        string `json:"httpProtocolIPv6,omitempty"`
	HTTPPutResponseHopLimit *int64 `json:"httpPutResponseHopLimit,omitempty"`
	HTTPTokens              string `json:"httpTokens,omitempty"`
}

// EC2NodeClassStatus is what the provider resolved from the selector
// terms, and its conditions: a class whose Ready condition is not True
// launches nothing ([Cluster.Problem]).
type EC2NodeClassStatus struct {
	AMIs           []ResolvedAMI    `json:"amis,omitempty"`
	Subnets        []ResolvedSubnet `json:"subnets,omitempty"`
	SecurityGroups []ResolvedGroup  `json:"securityGroups,omitempty"`
	Conditions     []Condition      `json:"conditions,omitempty"`
}

// ResolvedAMI is one status.amis entry.
type ResolvedAMI struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// ResolvedSubnet is one status.subnets entry.
type ResolvedSubnet struct {
	ID   string `json:"id"`
	Zone string `json:"zone,omitempty"`
}

// ResolvedGroup is one status.securityGroups entry.
type ResolvedGroup struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// FromEC2NodeClass converts c into drift's [drift.EC2NodeClass] shape. It
// checks that every selector term selects by something, spec.kubelet as
// Karpenter's CRD does, and every resolved subnet has a zone, and reads the EBS
// volume sizes as quantities (rounded up to GiB). It does not modify c.
// Errors are *ObjectError values naming the field. O(size of c).
func FromEC2NodeClass(c *EC2NodeClass) (drift.EC2NodeClass, error) {
	out, err := fromEC2NodeClass(c)
	return out, wrap(KindEC2NodeClass, "", c.Metadata.Name, err)
}

// NodeClass converts c to drift's provider-neutral [drift.NodeClass] (see
// [drift.EC2NodeClass.NodeClass]). Errors are *ObjectError values naming
// the field, such as status.amis[0].id.
func (c *EC2NodeClass) NodeClass() (drift.NodeClass, error) {
	ec2, err := FromEC2NodeClass(c)
	if err != nil {
		return drift.NodeClass{}, err
	}
	nc, err := ec2.NodeClass()
	var fe *drift.FieldError
	if errors.As(err, &fe) {
		return nc, &ObjectError{Kind: KindEC2NodeClass, Name: c.Metadata.Name, Field: fe.Field, Err: errors.New(fe.Msg)}
	}
	return nc, err
}

func fromEC2NodeClass(c *EC2NodeClass) (drift.EC2NodeClass, error) {
	s := &c.Spec
	if c.Metadata.Name == "" {
		return drift.EC2NodeClass{}, atField("metadata.name", errors.New("is empty"))
	}
	for _, t := range []struct {
		field string
		terms []SelectorTerm
	}{{"spec.amiSelectorTerms", s.AMISelectorTerms}, {"spec.subnetSelectorTerms", s.SubnetSelectorTerms},
		{"spec.securityGroupSelectorTerms", s.SecurityGroupSelectorTerms}} {
		if err := checkTerms(t.terms); err != nil {
			return drift.EC2NodeClass{}, atField(t.field, err)
		}
	}
	if _, err := c.kubelet(); err != nil {
		return drift.EC2NodeClass{}, err
	}
	out := drift.EC2NodeClass{Name: c.Metadata.Name, Spec: drift.EC2NodeClassSpec{Role: s.Role,
		InstanceProfile: s.InstanceProfile, UserData: s.UserData, MetadataOptions: metadataOptions(s.MetadataOptions),
		Tags: s.Tags}, Status: status(&c.Status)}
	if err := checkSubnets(c.Status.Subnets); err != nil {
		return drift.EC2NodeClass{}, err
	}
	for i, m := range s.BlockDeviceMappings {
		d, err := blockDevice(m)
		if err != nil {
			return drift.EC2NodeClass{}, atField(fmt.Sprintf("spec.blockDeviceMappings[%d].ebs.volumeSize", i), err)
		}
		out.Spec.BlockDeviceMappings = append(out.Spec.BlockDeviceMappings, d)
	}
	return out, nil
}

// checkSubnets checks that every resolved subnet names its zone, which
// decides where the class's NodePools launch ([Cluster.Problem]).
func checkSubnets(subnets []ResolvedSubnet) error {
	for i, n := range subnets {
		if n.Zone == "" {
			return atField(fmt.Sprintf("status.subnets[%d].zone", i),
				fmt.Errorf("subnet %q has no zone, so the zones its NodePools launch in are unknown", n.ID))
		}
	}
	return nil
}

func checkTerms(terms []SelectorTerm) error {
	for i, t := range terms {
		if t.empty() {
			return atField(fmt.Sprintf("[%d]", i), errors.New("selects by nothing (set id, name, alias, ssmParameter or tags)"))
		}
	}
	return nil
}

func metadataOptions(m *MetadataOptions) drift.MetadataOptions {
	if m == nil {
		return drift.MetadataOptions{}
	}
	return drift.MetadataOptions{HTTPEndpoint: m.HTTPEndpoint, HTTPProtocolIPv6: m.HTTPProtocolIPv6,
		HTTPTokens: m.HTTPTokens, HTTPPutResponseHopLimit: deref(m.HTTPPutResponseHopLimit)}
}

func blockDevice(m BlockDeviceMapping) (drift.BlockDevice, error) {
	d := drift.BlockDevice{DeviceName: m.DeviceName}
	e := m.EBS
	if e == nil {
		return d, nil
	}
	d.VolumeType, d.KMSKeyID, d.SnapshotID = e.VolumeType, e.KMSKeyID, e.SnapshotID
	d.IOPS, d.Throughput = deref(e.IOPS), deref(e.Throughput)
	d.Encrypted, d.DeleteOnTermination = deref(e.Encrypted), deref(e.DeleteOnTermination)
	if e.VolumeSize == "" {
		return d, nil
	}
	if err := bounded(e.VolumeSize); err != nil { // apimachinery's parser has no bounds
		return d, fmt.Errorf("%q %v", abbreviate(e.VolumeSize), err)
	}
	q, err := resource.ParseQuantity(e.VolumeSize)
	if err != nil || q.Sign() < 0 {
		return d, fmt.Errorf("%q is not a non-negative quantity", e.VolumeSize)
	}
	const gib = 1 << 30
	d.VolumeSizeGiB = (q.Value() + gib - 1) / gib
	return d, nil
}

func status(s *EC2NodeClassStatus) drift.EC2NodeClassStatus {
	var out drift.EC2NodeClassStatus
	for _, a := range s.AMIs {
		out.AMIs = append(out.AMIs, drift.AMI{ID: a.ID, Name: a.Name})
	}
	for _, n := range s.Subnets {
		out.Subnets = append(out.Subnets, drift.Subnet{ID: n.ID, Zone: n.Zone})
	}
	for _, g := range s.SecurityGroups {
		out.SecurityGroups = append(out.SecurityGroups, drift.SecurityGroup{ID: g.ID, Name: g.Name})
	}
	return out
}

// zones returns the distinct zones of the class's resolved subnets,
// in the order of the subnets. Each must be a zone of region (any
// non-empty zone when region is "", a catalog that does not know its
// region).
func (class *EC2NodeClass) zones(region string) ([]string, error) {
	var zones []string
	for i, s := range class.Status.Subnets {
		field := fmt.Sprintf("status.subnets[%d].zone", i)
		switch {
		case s.Zone == "" || region != "" && !instancetypes.ZoneInRegion(s.Zone, region):
			return nil, &ObjectError{Kind: KindEC2NodeClass, Name: class.Metadata.Name, Field: field,
				Err: fmt.Errorf("%w: zone %q is not in region %q, the catalog's", ErrInvalid, s.Zone, region)}
		case !slices.Contains(zones, s.Zone):
			zones = append(zones, s.Zone)
		}
	}
	return zones, nil
}
