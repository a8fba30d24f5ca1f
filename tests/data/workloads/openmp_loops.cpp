// OpenMP workload for an Nsight Systems capture with `-t openmp`: parallel regions with
// static and dynamic loops, a reduction, a critical section, tasks and barriers, on 4 threads.
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <vector>

static double work(int i) {
    double x = 0;
    for (int k = 0; k < 2000 + (i % 7) * 500; ++k) x += std::sin(k * 0.001 + i);
    return x;
}

int main() {
    omp_set_num_threads(4);
    std::vector<double> data(4000);
    double total = 0;
    for (int step = 0; step < 5; ++step) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < (int)data.size(); ++i) data[i] = work(i);

#pragma omp parallel for schedule(dynamic, 64) reduction(+ : total)
        for (int i = 0; i < (int)data.size(); ++i) total += data[i] * work(i + step);

#pragma omp parallel
        {
            double local = 0;
#pragma omp for nowait
            for (int i = 0; i < 1000; ++i) local += work(i);
#pragma omp critical
            total += local;
#pragma omp barrier
#pragma omp single
            {
                for (int t = 0; t < 16; ++t) {
#pragma omp task firstprivate(t) shared(total)
                    {
                        double v = work(t * 100);
#pragma omp atomic
                        total += v;
                    }
                }
#pragma omp taskwait
            }
        }
    }
    std::printf("%f\n", total);
    return 0;
}
