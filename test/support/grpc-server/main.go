// A minimal gRPC server on loopback (health service and server reflection) that ghz fixtures are captured against.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address; port 0 picks a free port")
	lifetime := flag.Duration("max-lifetime", 5*time.Minute, "stop by itself after this long, so a forgotten server cannot linger")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		log.Fatalf("bad -addr %q: %v", *addr, err)
	}
	// Load only ever targets loopback, so refuse anything else rather than expose a port.
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		log.Fatalf("-addr must be a loopback IP address, got %q", host)
	}
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("listen %s: %v", *addr, err)
	}

	srv := grpc.NewServer()
	hs := health.NewServer()
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus("benchline.Probe", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, hs)
	reflection.Register(srv)

	// The capture script reads this line to learn the port the kernel chose.
	fmt.Printf("listening %s pid %d\n", lis.Addr().String(), os.Getpid())

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case <-stop:
		case <-time.After(*lifetime):
			log.Printf("max lifetime %s reached, stopping", *lifetime)
		}
		srv.GracefulStop()
	}()
	if err := srv.Serve(lis); err != nil {
		log.Fatalf("serve: %v", err)
	}
}
