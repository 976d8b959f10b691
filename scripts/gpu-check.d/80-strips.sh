# Strip digitization and reconstruction (issue 26): `gtrack validate` of inputs/sts.toml with its
# [strips] stage (CPU = GPU bit for bit on hits, digis, clusters and reconstructed hits), then the GPU
# test StripTest: the same comparison on 200 events, and the reconstruction's throughput (time sort +
# clusters + hits of ~8e6 digis, 16 bytes each) on the GPU against one and all CPU cores of this
# machine, and the GPU's radix against its merge sort. Targets: >= 2.4 GB/s, >= 100x one core.
# Sourced by scripts/gpu-check.sh ($build, $out, note, status).
strips_log="$out/strips"
mkdir -p "$strips_log"
if ./$build/gtrack validate inputs/sts.toml --set gun.events=100 >"$strips_log/validate.log" 2>&1; then
    note "strips validate sts.toml" "$(grep -E '^strip digis' "$strips_log/validate.log"); $(grep verdict "$strips_log/validate.log")"
else
    tail -8 "$strips_log/validate.log"
    note "strips validate sts.toml" FAILED
    status=1
fi
if timeout 300 ./$build/tests/gtrack_gpu_tests --no-version --source-file='*/StripTest.cc' -s >"$strips_log/test.log" 2>&1; then
    note "strips throughput" "$(grep -E '^strips throughput' "$strips_log/test.log" | sed 's/^strips throughput: //')"
    note "strips gpu sort" "$(grep -E '^strips gpu sort' "$strips_log/test.log" | sed 's/^strips gpu sort of //')"
else
    tail -20 "$strips_log/test.log"
    note "strips StripTest" FAILED
    status=1
fi
