Restctl.main()
