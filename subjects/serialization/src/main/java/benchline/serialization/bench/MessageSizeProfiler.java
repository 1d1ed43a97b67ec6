// JMH profiler that reports the encoded message size as a secondary result (·message.bytes, in B).
package benchline.serialization.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.Collection;
import java.util.List;

/**
 * Size is a property of the format, not of timing, but putting it in the same -rf json file keeps
 * one benchmark run the single source of every number in the report. Use with
 * {@code -prof benchline.serialization.bench.MessageSizeProfiler}.
 */
public final class MessageSizeProfiler implements InternalProfiler {
    @Override
    public String getDescription() {
        return "Encoded size in bytes of the message the benchmark's codec writes";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        int bytes = MessageSize.current();
        if (bytes < 0) {
            return List.of();
        }
        return List.of(new ScalarResult("message.bytes", bytes, "B", AggregationPolicy.AVG));
    }
}
