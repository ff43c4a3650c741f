def update_arr(arr, factor):
    for i in range(len(arr)):
        if i > 0:
            arr[i] = (arr[i] * factor + arr[i - 1]) % 10
    return arr
