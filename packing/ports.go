package packing

// portsConflict reports whether any of ports clashes with used: the same
// port and protocol on the same or a wildcard address.
func portsConflict(ports, used []HostPort) bool {
	for _, p := range ports {
		for _, u := range used {
			if p.Port == u.Port && portProtocol(p) == portProtocol(u) && (p.IP == u.IP || wildcard(p.IP) || wildcard(u.IP)) {
				return true
			}
		}
	}
	return false
}

// portProtocol is p's protocol, TCP when unset.
func portProtocol(p HostPort) string {
	if p.Protocol == "" {
		return "TCP"
	}
	return p.Protocol
}

// wildcard reports whether ip binds every address.
func wildcard(ip string) bool { return ip == "" || ip == "0.0.0.0" || ip == "::" }
