// Two threads, each summing its own half of the data; main adds the partial sums. The slice of
// a partial sum stays inside its own thread's work: dependences are tracked per thread.
#include <cstdio>
#include <thread>

static int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void sum_range(int begin, int end, int *out) {
    int sum = 0;
    for (int i = begin; i < end; ++i)
        sum += data[i];
    *out = sum;
}

int main() {
    int low = 0;
    int high = 0;
    std::thread first(sum_range, 0, 4, &low);
    std::thread second(sum_range, 4, 8, &high);
    first.join();
    second.join();
    int total = low + high;
    std::printf("low = %d, high = %d, total = %d\n", low, high, total);
    return 0;
}
