print("embed-patterns placeholder")
