package instancetypes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
)

// ZoneInRegion reports whether zone is named as a zone of region: the
// region followed by one lower-case letter (AWS Availability Zones such as
// us-east-1a), or by '-' and more (AWS Local and Wavelength Zones such as
// us-west-2-lax-1a, Azure zones such as eastus-1). It checks the naming
// only: it does not know which zones a region has. It does not allocate.
func ZoneInRegion(zone, region string) bool {
	rest, ok := strings.CutPrefix(zone, region)
	if !ok || region == "" {
		return false
	}
	switch {
	case len(rest) == 1:
		return rest[0] >= 'a' && rest[0] <= 'z'
	case len(rest) > 1:
		return rest[0] == '-'
	}
	return false
}

// awsZones returns the default zones of an AWS region and whether they are
// known rather than assumed. For the regions with embedded prices they are
// zone names those regions have: us-east-1a, -1b and -1c (three of
// us-east-1's six, a to f), us-gov-east-1a/b/c and us-gov-west-1a/b/c (all
// three of each), cn-north-1a, -1b and -1d (all three: cn-north-1 has no
// "c"). The catalogs' README says zone lists are not in the data; these
// come from AWS's "AWS Availability Zones" page (three zones per region)
// and public subnet listings of each region. In the oldest regions an
// account's zone names map to AZ IDs of its own, and an old account may not
// see every name. For any other region they are region+"a", +"b", +"c",
// assumed: not every region has these names (ap-northeast-1 has no "b"), so
// set Options.Zones there.
func awsZones(region string) ([]string, bool) {
	letters, known := "abc", true
	switch region {
	case "us-east-1", "us-gov-east-1", "us-gov-west-1":
	case "cn-north-1":
		letters = "abd"
	default:
		known = false
	}
	zones := make([]string, len(letters))
	for i := range letters {
		zones[i] = region + letters[i:i+1]
	}
	return zones, known
}

// azureZones returns "<region>-1", "-2" and "-3", the zone label values of
// an Azure region with availability zones.
func azureZones(region string) ([]string, bool) {
	return []string{region + "-1", region + "-2", region + "-3"}, true
}

// validateRegion checks that region is a non-empty label value.
func validateRegion(region, field string) []error {
	if region == "" || requirements.ValidateValue(region) != nil {
		return []error{fieldErr("", field, ErrInvalidOptions, "%q is not a region name (a non-empty label value)", region)}
	}
	return nil
}

// validateZones checks that zones are distinct zones of region; an empty
// region (a catalog built by New) admits any label value.
func validateZones(region, field string, zones []string) []error {
	var errs []error
	for i, z := range zones {
		f := fmt.Sprintf("%s[%d]", field, i)
		switch {
		case z == "" || requirements.ValidateValue(z) != nil:
			errs = append(errs, fieldErr("", f, ErrInvalidOptions, "%q is not a zone name (a non-empty label value)", z))
		case slices.Contains(zones[:i], z):
			errs = append(errs, fieldErr("", f, ErrInvalidOptions, "%q is listed twice", z))
		case region != "" && !ZoneInRegion(z, region):
			errs = append(errs, fieldErr("", f, ErrInvalidOptions, "%q is not a zone of region %q", z, region))
		}
	}
	return errs
}
