//go:build unix

package apiservertest

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"time"
)

// pollInterval is how often readiness and CRD conditions are checked.
const pollInterval = 200 * time.Millisecond

// waitReady polls /readyz as Admin until the API server answers 200 OK,
// failing as soon as either process exits and after readyTimeout. The
// serving certificate is not checked here: it is written while the
// server starts, and the clients of Config check it.
func (s *Server) waitReady() error {
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, // loopback, readiness only
	}
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(readyTimeout)
	last := "no answer yet"
	for time.Now().Before(deadline) {
		for _, p := range []*process{s.etcd, s.apiserver} {
			if err := p.exited(); err != nil {
				return err
			}
		}
		ok, answer := s.ready(client)
		if ok {
			return nil
		}
		last = answer
		time.Sleep(pollInterval)
	}
	return fmt.Errorf("apiservertest: kube-apiserver not ready after %v; /readyz: %s", readyTimeout, last)
}

// ready asks /readyz once, returning whether it answered 200 and a
// summary of the answer.
func (s *Server) ready(client *http.Client) (bool, string) {
	req, err := http.NewRequest(http.MethodGet, s.url+"/readyz", nil)
	if err != nil {
		return false, err.Error()
	}
	req.Header.Set("Authorization", "Bearer "+s.tokens[Admin])
	resp, err := client.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096)) // only for the message
	return resp.StatusCode == http.StatusOK, fmt.Sprintf("%s: %s", resp.Status, body)
}
