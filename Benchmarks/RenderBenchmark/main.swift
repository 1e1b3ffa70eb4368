print("render-benchmark placeholder")
