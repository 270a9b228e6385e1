package resources_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/resources"
)

func ExampleParseQuantity() {
	for _, s := range []string{"1.5", "1000", "0.5Ki", "1.5Gi", "12e-3", "100m"} {
		q, err := resources.ParseQuantity(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s -> %s value=%d milli=%d\n", s, q, q.Value(), q.MilliValue())
	}
	_, err := resources.ParseQuantity("9Ei")
	fmt.Println(err)
	// Output:
	// 1.5 -> 1500m value=2 milli=1500
	// 1000 -> 1k value=1000 milli=1000000
	// 0.5Ki -> 512 value=512 milli=512000
	// 1.5Gi -> 1536Mi value=1610612736 milli=1610612736000
	// 12e-3 -> 12e-3 value=1 milli=12
	// 100m -> 100m value=1 milli=100
	// resources: parsing quantity "9Ei": invalid quantity: out of range
}

func ExampleList_Fits() {
	capacity := resources.MustParse(map[resources.Name]string{
		resources.CPU: "4", resources.Memory: "16Gi", resources.Pods: "110", resources.GPU: "1",
	})
	pod := resources.MustParse(map[resources.Name]string{resources.CPU: "500m", resources.Memory: "1Gi", resources.Pods: "1"})
	fmt.Println(pod, "fits:", pod.Fits(capacity))

	big := pod.With(resources.GPU, 2)
	name, short := big.Shortfall(capacity)
	fmt.Println(big, "fits:", big.Fits(capacity), "short of:", name, short)
	fmt.Println("left:", capacity.Sub(pod))
	// Output:
	// cpu=500m memory=1Gi pods=1 fits: true
	// cpu=500m memory=1Gi pods=1 nvidia.com/gpu=2 fits: false short of: nvidia.com/gpu true
	// left: cpu=3500m memory=15Gi pods=109 nvidia.com/gpu=1
}

// ExampleSortedNames goes through a NodePool's limits in a fixed order.
func ExampleSortedNames() {
	limits := map[resources.Name]int64{resources.Memory: 64 << 30, resources.CPU: 16000, resources.GPU: 2}
	for _, name := range resources.SortedNames(limits) {
		fmt.Println(name, limits[name])
	}
	fmt.Println(resources.SortedNames(nil) == nil)
	// Output:
	// cpu 16000
	// memory 68719476736
	// nvidia.com/gpu 2
	// true
}
