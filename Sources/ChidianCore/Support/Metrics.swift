import Metrics
import Prometheus

/// The process-wide Prometheus registry; swift-metrics can be bootstrapped once per process.
package enum MetricsRegistry {
    package static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    package static func render() -> [UInt8] {
        var buffer: [UInt8] = []
        shared.emit(into: &buffer)
        return buffer
    }
}
