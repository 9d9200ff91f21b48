/* Binary search and insertion sort over the command-line numbers; prints the sorted list and
 * where the first number is found. */
#include <stdio.h>
#include <stdlib.h>

static void sort(int *a, int n) {
    int i, j;
    for (i = 1; i < n; i++) {
        int key = a[i];
        j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

static int search(const int *a, int n, int key) {
    int low = 0, high = n - 1;
    while (low <= high) {
        int mid = low + (high - low) / 2;
        if (a[mid] == key)
            return mid;
        if (a[mid] < key)
            low = mid + 1;
        else
            high = mid - 1;
    }
    return -1;
}

int main(int argc, char **argv) {
    int a[64], n = 0, i, key;
    if (argc < 2)
        return 2;
    for (i = 1; i < argc && n < 64; i++)
        a[n++] = atoi(argv[i]);
    key = a[0];
    sort(a, n);
    for (i = 0; i < n; i++)
        printf("%d%c", a[i], i + 1 < n ? ' ' : '\n');
    printf("found at %d\n", search(a, n, key));
    return 0;
}
