# Buildx bake targets: one per subject (named after its folder under subjects/) plus the load tool images.
# CI builds the planned subjects with `--set *.cache-from/to=type=gha`; locally: docker buildx bake [target].

variable "TAG" {
  default = "local"
}

group "default" {
  targets = ["all"]
}

group "all" {
  targets = ["orders-api", "gateways", "serialization", "catalog-api", "grpc-streaming", "wrk"]
}

# Labels every image shares, so a registry listing says where an image came from.
target "_common" {
  labels = {
    "org.opencontainers.image.vendor"   = "benchline"
    "org.opencontainers.image.licenses" = "MIT"
  }
}

# subjects/orders-api: the Bun + SQLite items API.
target "orders-api" {
  inherits   = ["_common"]
  context    = "subjects/orders-api"
  dockerfile = "Dockerfile"
  tags       = ["benchline/orders-api:${TAG}"]
}

# subjects/gateways: one image for the three Bun echo backends and the Bun gateway.
target "gateways" {
  inherits   = ["_common"]
  context    = "subjects/gateways"
  dockerfile = "Dockerfile"
  tags       = ["benchline/gateways-bun:${TAG}"]
}

# subjects/serialization: the JMH jar (SBE vs Protobuf vs JSON), built with Maven on JDK 25.
target "serialization" {
  inherits   = ["_common"]
  context    = "subjects/serialization"
  dockerfile = "Dockerfile"
  tags       = ["benchline/serialization:${TAG}"]
}

# subjects/catalog-api: the Spring Boot service (HATEOAS, REST/Stream, gRPC), built with Maven on JDK 25.
target "catalog-api" {
  inherits   = ["_common"]
  context    = "subjects/catalog-api"
  dockerfile = "Dockerfile"
  tags       = ["benchline/catalog-api:${TAG}"]
}

# subjects/grpc-streaming: the gRPC servers and clients (grpc-java on Netty, Helidon 4), built with Maven on JDK 25.
target "grpc-streaming" {
  inherits   = ["_common"]
  context    = "subjects/grpc-streaming"
  dockerfile = "Dockerfile"
  tags       = ["benchline/grpc-streaming:${TAG}"]
}

# Load tool: wrk for the compose topology (scripts mounted from loadtests/wrk).
target "wrk" {
  inherits   = ["_common"]
  context    = "subjects/gateways"
  dockerfile = "Dockerfile.wrk"
  tags       = ["benchline/wrk:${TAG}"]
}
