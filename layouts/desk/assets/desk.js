// desk script
